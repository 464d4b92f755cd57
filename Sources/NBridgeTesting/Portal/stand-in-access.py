#!/usr/bin/python3
# A stand-in org.freedesktop.impl.portal.Access (the desktop's "allow this app?" dialog) for
# xdg-desktop-portal: answers every AccessDialog with RESPONSE (0 granted, 1 denied), printing
# "asked APP_ID" first, and prints "ready" once it owns its bus name.
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
response = dbus.UInt32(int(sys.argv[1]))
bus = dbus.SessionBus()


class Access(dbus.service.Object):
    @dbus.service.method(
        "org.freedesktop.impl.portal.Access", in_signature="osssssa{sv}", out_signature="ua{sv}"
    )
    def AccessDialog(self, handle, app_id, parent_window, title, subtitle, body, options):
        print("asked " + app_id, flush=True)
        return (response, dbus.Dictionary({}, signature="sv"))


name = dbus.service.BusName("org.nbridge.test.StandInAccess", bus)
Access(bus, "/org/freedesktop/portal/desktop")
print("ready", flush=True)
GLib.MainLoop().run()
