// performance: now() and timeOrigin (High Resolution Time), mark/measure and the entry getters
// (User Timing). now() counts from the run's start on the monotonic clock.
// Takes: internal.events (events.js's loader), internal.native.now, internal.timeOrigin.
// Gives: its function's result: { Performance, PerformanceEntry, PerformanceMark, PerformanceMeasure, performance }.
(function (_global, internal) {
  'use strict';
  const native = internal.native;
  function build() {
    const { EventTarget } = internal.events();
    const entries = [];
    let constructing = false;
    const stateOf = new WeakMap();
    const entry = (self) => {
      const s = stateOf.get(self);
      if (!s) throw new TypeError('Illegal invocation: not a PerformanceEntry');
      return s;
    };

    class PerformanceEntry {
      constructor() {
        if (new.target !== PerformanceMark && !constructing) throw new TypeError('Illegal constructor');
      }
      get name() {
        return entry(this).name;
      }
      get entryType() {
        return entry(this).entryType;
      }
      get startTime() {
        return entry(this).startTime;
      }
      get duration() {
        return entry(this).duration;
      }
      toJSON() {
        const { name, entryType, startTime, duration } = entry(this);
        return { name, entryType, startTime, duration };
      }
    }
    class PerformanceMark extends PerformanceEntry {
      constructor(name, options = undefined) {
        if (arguments.length === 0) throw new TypeError("Failed to construct 'PerformanceMark': 1 argument required");
        super();
        let startTime = native.now();
        if (options?.startTime !== undefined) {
          startTime = Number(options.startTime);
          if (!Number.isFinite(startTime)) throw new TypeError("PerformanceMark: 'startTime' is not finite");
          if (startTime < 0) throw new TypeError("PerformanceMark: 'startTime' is negative");
        }
        const detail = options?.detail === undefined ? null : structuredClone(options.detail);
        stateOf.set(this, { name: String(name), entryType: 'mark', startTime, duration: 0, detail });
      }
      get detail() {
        return entry(this).detail;
      }
      toJSON() {
        return { ...super.toJSON(), detail: entry(this).detail };
      }
    }
    class PerformanceMeasure extends PerformanceEntry {
      get detail() {
        return entry(this).detail;
      }
      toJSON() {
        return { ...super.toJSON(), detail: entry(this).detail };
      }
    }
    for (
      const [type, name] of [[PerformanceEntry, 'PerformanceEntry'], [PerformanceMark, 'PerformanceMark'], [
        PerformanceMeasure,
        'PerformanceMeasure',
      ]]
    ) {
      Object.defineProperty(type.prototype, Symbol.toStringTag, { value: name, configurable: true });
    }

    function markTime(mark, what) {
      if (typeof mark === 'number') {
        if (mark < 0) throw new TypeError("Failed to execute 'measure': '" + what + "' is negative");
        return mark;
      }
      const name = String(mark);
      for (let i = entries.length - 1; i >= 0; i--) {
        const s = stateOf.get(entries[i]);
        if (s.entryType === 'mark' && s.name === name) return s.startTime;
      }
      throw new DOMException("Failed to execute 'measure': the mark '" + name + "' does not exist", 'SyntaxError');
    }
    const filter = (type, name) =>
      entries.filter((e) => {
        const s = stateOf.get(e);
        return (type === undefined || s.entryType === type) && (name === undefined || s.name === name);
      });
    function clear(type, name) {
      for (let i = entries.length - 1; i >= 0; i--) {
        const s = stateOf.get(entries[i]);
        if (s.entryType === type && (name === undefined || s.name === String(name))) entries.splice(i, 1);
      }
    }

    class Performance extends EventTarget {
      constructor() {
        if (!constructing) throw new TypeError('Illegal constructor');
        super();
      }
      now() {
        return native.now();
      }
      get timeOrigin() {
        return internal.timeOrigin;
      }
      toJSON() {
        return { timeOrigin: internal.timeOrigin };
      }
      mark(name, options = undefined) {
        if (arguments.length === 0) throw new TypeError("Failed to execute 'mark': 1 argument required");
        const mark = new PerformanceMark(name, options);
        entries.push(mark);
        return mark;
      }
      measure(name, startOrOptions = undefined, endMark = undefined) {
        if (arguments.length === 0) throw new TypeError("Failed to execute 'measure': 1 argument required");
        const options = startOrOptions !== null && typeof startOrOptions === 'object' ? startOrOptions : null;
        if (options) {
          const has = (k) => options[k] !== undefined;
          if (endMark !== undefined && (has('start') || has('end') || has('duration') || has('detail'))) {
            throw new TypeError("Failed to execute 'measure': options and an end mark cannot both be given");
          }
          if (!has('start') && !has('end') && (has('duration') || has('detail'))) {
            throw new TypeError("Failed to execute 'measure': 'start' or 'end' is required");
          }
          if (has('start') && has('end') && has('duration')) {
            throw new TypeError("Failed to execute 'measure': 'start', 'end' and 'duration' cannot all be given");
          }
        }
        let end;
        if (endMark !== undefined) end = markTime(endMark, 'end');
        else if (options && options.end !== undefined) end = markTime(options.end, 'end');
        else if (options && options.start !== undefined && options.duration !== undefined) {
          end = markTime(options.start, 'start') + markTime(options.duration, 'duration');
        } else end = native.now();
        let start;
        if (options && options.start !== undefined) start = markTime(options.start, 'start');
        else if (options && options.duration !== undefined && options.end !== undefined) {
          start = end - markTime(options.duration, 'duration');
        } else if (startOrOptions !== undefined && !options) start = markTime(startOrOptions, 'start');
        else start = 0;
        const detail = options && options.detail !== undefined ? structuredClone(options.detail) : null;
        constructing = true;
        let measure;
        try {
          measure = new PerformanceMeasure();
        } finally {
          constructing = false;
        }
        stateOf.set(measure, {
          name: String(name),
          entryType: 'measure',
          startTime: start,
          duration: end - start,
          detail,
        });
        entries.push(measure);
        return measure;
      }
      getEntries() {
        return filter();
      }
      getEntriesByType(type) {
        return filter(String(type));
      }
      getEntriesByName(name, type = undefined) {
        return filter(type === undefined ? undefined : String(type), String(name));
      }
      clearMarks(name = undefined) {
        clear('mark', name);
      }
      clearMeasures(name = undefined) {
        clear('measure', name);
      }
    }
    Object.defineProperty(Performance.prototype, Symbol.toStringTag, { value: 'Performance', configurable: true });
    constructing = true;
    const performance = new Performance();
    constructing = false;
    return { Performance, PerformanceEntry, PerformanceMark, PerformanceMeasure, performance };
  }
  return build();
});
