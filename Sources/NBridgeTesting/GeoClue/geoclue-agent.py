#!/usr/bin/python3
# A stand-in GeoClue location agent: registers with Manager.AddAgent as geoclue-demo-agent (an id
# of geoclue.conf's default [agent] whitelist) and answers with MaxAccuracyLevel LEVEL (8: exact,
# 0: location off for this user, which makes GeoClue refuse every client). Prints "registered"
# once GeoClue has accepted it. AddAgent is called asynchronously: GeoClue reads the agent's
# MaxAccuracyLevel while the call is in flight.
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
level = dbus.UInt32(int(sys.argv[1]))
bus = dbus.SystemBus()
AGENT = "org.freedesktop.GeoClue2.Agent"


class Agent(dbus.service.Object):
    @dbus.service.method(AGENT, in_signature="su", out_signature="bu")
    def AuthorizeApp(self, desktop_id, requested):
        print("authorize " + desktop_id, flush=True)
        return (level > 0, min(requested, level))

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return level

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return {"MaxAccuracyLevel": level}


agent = Agent(bus, "/org/freedesktop/GeoClue2/Agent")
manager = bus.get_object("org.freedesktop.GeoClue2", "/org/freedesktop/GeoClue2/Manager")


def failed(error):
    print("AddAgent failed: %s" % error, flush=True)
    sys.exit(1)


manager.AddAgent(
    "geoclue-demo-agent",
    dbus_interface="org.freedesktop.GeoClue2.Manager",
    reply_handler=lambda: print("registered", flush=True),
    error_handler=failed,
)
GLib.MainLoop().run()
