#!/usr/bin/python3
"""A stand-in XDG desktop portal with only org.freedesktop.portal.GlobalShortcuts (version 1), for
the shortcut tests, on the bus in DBUS_SESSION_BUS_ADDRESS: what a Wayland desktop's portal backend
does, without a desktop (no backend on Debian bookworm implements the interface).

It prints one JSON line per thing an app asks: {"session": handle} for CreateSession,
{"bind": handle, "shortcuts": [[id, {description, preferred_trigger}]]} for BindShortcuts,
{"closed": handle} for Session.Close; and "ready" once it owns org.freedesktop.portal.Desktop.
The test presses a bound shortcut by calling org.nbridge.test.Portal.Activate(id) on it: the
portal sends Activated (then Deactivated) for the session that bound it, to that session's app.

    global-shortcuts-portal.py           grant every BindShortcuts
    global-shortcuts-portal.py refuse    answer BindShortcuts with response 1 (the user said no)
"""
import json
import sys

import dbus
import dbus.lowlevel
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.portal.Desktop"
PATH = "/org/freedesktop/portal/desktop"
SHORTCUTS = "org.freedesktop.portal.GlobalShortcuts"
REQUEST = "org.freedesktop.portal.Request"
SESSION = "org.freedesktop.portal.Session"
CONTROL = "org.nbridge.test.Portal"


def report(**fields):
    print(json.dumps(fields), flush=True)


def sender_part(sender):
    return sender[1:].replace(".", "_")


class Session(dbus.service.Object):
    """One CreateSession's session object, with the shortcuts it bound."""

    def __init__(self, portal, path, owner):
        super().__init__(portal.bus, path)
        self.portal = portal
        self.path = path
        self.owner = owner
        self.shortcuts = {}

    @dbus.service.method(SESSION, in_signature="", out_signature="")
    def Close(self):
        report(closed=self.path)
        self.portal.sessions.pop(self.path, None)
        self.remove_from_connection()


class Portal(dbus.service.Object):
    def __init__(self, bus, refuse):
        super().__init__(bus, PATH)
        self.bus = bus
        self.refuse = refuse
        self.sessions = {}

    def respond(self, sender, token, code, results):
        """Sends the Response of the request `token` of `sender`, after the method's reply."""
        path = "%s/request/%s/%s" % (PATH, sender_part(sender), token)

        def send():
            message = dbus.lowlevel.SignalMessage(path, REQUEST, "Response")
            message.set_destination(sender)
            message.append(dbus.UInt32(code), dbus.Dictionary(results, signature="sv"), signature="ua{sv}")
            self.bus.send_message(message)
            return False

        GLib.idle_add(send)
        return dbus.ObjectPath(path)

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ss", out_signature="v")
    def Get(self, interface, prop):
        if interface == SHORTCUTS and prop == "version":
            return dbus.UInt32(1)
        raise dbus.exceptions.DBusException("no such property", name="org.freedesktop.DBus.Error.InvalidArgs")

    @dbus.service.method(SHORTCUTS, in_signature="a{sv}", out_signature="o", sender_keyword="sender")
    def CreateSession(self, options, sender=None):
        token = str(options["handle_token"])
        handle = "%s/session/%s/%s" % (PATH, sender_part(sender), options["session_handle_token"])
        self.sessions[handle] = Session(self, handle, sender)
        report(session=handle)
        return self.respond(sender, token, 0, {"session_handle": dbus.String(handle)})

    @dbus.service.method(SHORTCUTS, in_signature="oa(sa{sv})sa{sv}", out_signature="o", sender_keyword="sender")
    def BindShortcuts(self, handle, shortcuts, parent, options, sender=None):
        token = str(options["handle_token"])
        listed = [[str(i), {str(k): str(v) for k, v in props.items()}] for i, props in shortcuts]
        report(bind=str(handle), shortcuts=listed)
        session = self.sessions.get(str(handle))
        if self.refuse or session is None:
            return self.respond(sender, token, 1 if self.refuse else 2, {})
        bound = []
        for shortcut_id, props in listed:
            session.shortcuts[shortcut_id] = props
            description = props.get("description", "")
            trigger = props.get("preferred_trigger", "")
            bound.append(dbus.Struct(
                (shortcut_id, dbus.Dictionary({"description": description, "trigger_description": trigger},
                                              signature="sv")), signature="sa{sv}"))
        return self.respond(sender, token, 0, {"shortcuts": dbus.Array(bound, signature="(sa{sv})")})

    @dbus.service.method(CONTROL, in_signature="s", out_signature="u")
    def Activate(self, shortcut_id):
        """Presses `shortcut_id` in every session that bound it; how many did."""
        count = 0
        for session in list(self.sessions.values()):
            if shortcut_id not in session.shortcuts:
                continue
            for member in ("Activated", "Deactivated"):
                message = dbus.lowlevel.SignalMessage(PATH, SHORTCUTS, member)
                message.set_destination(session.owner)
                message.append(dbus.ObjectPath(session.path), shortcut_id, dbus.UInt64(1234),
                               dbus.Dictionary({}, signature="sv"), signature="osta{sv}")
                self.bus.send_message(message)
            count += 1
        return dbus.UInt32(count)


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    portal = Portal(bus, refuse=sys.argv[1:] == ["refuse"])
    name = dbus.service.BusName(NAME, bus, do_not_queue=True)
    print("ready", flush=True)
    GLib.MainLoop().run()
    del portal, name


if __name__ == "__main__":
    main()
