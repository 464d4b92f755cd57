#!/usr/bin/python3
"""A stand-in org.kde.StatusNotifierWatcher for the tray tests, on the bus in DBUS_SESSION_BUS_ADDRESS.

It does what a desktop's tray does with an item that registers: reads its properties and its
dbusmenu layout, and prints them as one JSON line ({"registered": name, ...}); it prints
{"gone": name} when a registered item leaves the bus, and "ready" once it owns the watcher's name.

    sni-watcher.py            serve until killed
    sni-watcher.py png PATH   write a 2x1 RGBA PNG (opaque red, half-transparent blue) to PATH
"""
import json
import struct
import sys
import zlib

WATCHER = "org.kde.StatusNotifierWatcher"
ITEM = "org.kde.StatusNotifierItem"


def write_png(path):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"\x00" + bytes([255, 0, 0, 255, 0, 0, 255, 128])
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 1, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def plain(value):
    """A dbus-python value as JSON can hold it (byte arrays as hex)."""
    if isinstance(value, (dbus.Array, list)):
        if value.signature == "y":
            return bytes(value).hex()
        return [plain(v) for v in value]
    if isinstance(value, (dbus.Struct, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dbus.Dictionary):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.String, dbus.ObjectPath)):
        return str(value)
    if isinstance(value, (dbus.Byte,)):
        return int(value)
    if isinstance(value, (dbus.Int32, dbus.UInt32, dbus.Int64, dbus.UInt64)):
        return int(value)
    return value


def layout(node):
    number, properties, children = node
    return {"id": int(number), "props": plain(properties), "children": [layout(c) for c in children]}


def serve():
    bus = dbus.SessionBus()

    class Watcher(dbus.service.Object):
        def __init__(self):
            super().__init__(bus, "/StatusNotifierWatcher")
            self.items = []

        @dbus.service.method(WATCHER, in_signature="s", out_signature="", sender_keyword="sender")
        def RegisterStatusNotifierItem(self, service, sender=None):
            name, path = (sender, service) if service.startswith("/") else (service, "/StatusNotifierItem")
            if name not in self.items:
                self.items.append(name)
            self.StatusNotifierItemRegistered(name + path)
            GLib.idle_add(self.report, name, path, sender)

        @dbus.service.method(WATCHER, in_signature="s", out_signature="")
        def RegisterStatusNotifierHost(self, service):
            pass

        @dbus.service.signal(WATCHER, signature="s")
        def StatusNotifierItemRegistered(self, service):
            pass

        @dbus.service.signal(WATCHER, signature="s")
        def StatusNotifierItemUnregistered(self, service):
            pass

        @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ss", out_signature="v")
        def Get(self, interface, prop):
            return self.GetAll(interface)[prop]

        @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="s", out_signature="a{sv}")
        def GetAll(self, interface):
            return {
                "RegisteredStatusNotifierItems": dbus.Array(self.items, signature="s"),
                "IsStatusNotifierHostRegistered": True,
                "ProtocolVersion": dbus.Int32(0),
            }

        def report(self, name, path, sender):
            item = bus.get_object(name, path)
            props = item.GetAll(ITEM, dbus_interface=dbus.PROPERTIES_IFACE)
            menu = bus.get_object(name, props["Menu"])
            revision, root = menu.GetLayout(0, -1, dbus.Array([], signature="s"), dbus_interface="com.canonical.dbusmenu")
            line = {"registered": name, "sender": sender, "props": plain(props), "menu": layout(root)}
            print(json.dumps(line), flush=True)
            return False

        def owner_changed(self, name, old, new):
            if name in self.items and not new:
                self.items.remove(name)
                self.StatusNotifierItemUnregistered(name)
                print(json.dumps({"gone": name}), flush=True)

    watcher = Watcher()
    bus.add_signal_receiver(watcher.owner_changed, "NameOwnerChanged", "org.freedesktop.DBus")
    name = dbus.service.BusName(WATCHER, bus)  # kept: the name goes with the object
    print("ready", flush=True)
    GLib.MainLoop().run()
    del name


if __name__ == "__main__":
    if sys.argv[1:2] == ["png"]:
        write_png(sys.argv[2])
    else:
        import dbus
        import dbus.mainloop.glib
        import dbus.service
        from gi.repository import GLib

        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        serve()
