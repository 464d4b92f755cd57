#!/usr/bin/python3
# Serves NMEA 0183 on a Unix socket as a GPS receiver would, for GeoClue's --nmea-socket:
# a $GPGGA and a $GPRMC sentence every 200 ms for the position in the file POSITION
# ("latitude,longitude", decimal degrees; re-read before each pair), or sentences without a
# fix while the file is empty. Prints "listening" once the socket accepts connections.
import os
import socket
import sys
import threading
import time

path, position_file = sys.argv[1], sys.argv[2]


def sentence(body):
    checksum = 0
    for ch in body:
        checksum ^= ord(ch)
    return "$%s*%02X\r\n" % (body, checksum)


def degrees(value, width, positive, negative):
    hemisphere = positive if value >= 0 else negative
    value = abs(value)
    whole = int(value)
    return "%0*d%07.4f" % (width, whole, (value - whole) * 60), hemisphere


def pair():
    now = time.gmtime()
    clock = time.strftime("%H%M%S", now) + ".00"
    with open(position_file) as f:
        text = f.read().strip()
    if not text:
        return sentence("GPGGA,%s,,,,,0,00,,,M,,M,," % clock) + sentence("GPRMC,%s,V,,,,,,,%s,,," % (clock, time.strftime("%d%m%y", now)))
    latitude, longitude = (float(x) for x in text.split(","))
    lat, ns = degrees(latitude, 2, "N", "S")
    lon, ew = degrees(longitude, 3, "E", "W")
    return sentence("GPGGA,%s,%s,%s,%s,%s,1,08,0.9,45.0,M,0.0,M,," % (clock, lat, ns, lon, ew)) + sentence(
        "GPRMC,%s,A,%s,%s,%s,%s,0.5,90.0,%s,,," % (clock, lat, ns, lon, ew, time.strftime("%d%m%y", now))
    )


def serve(connection):
    try:
        while True:
            connection.sendall(pair().encode())
            time.sleep(0.2)
    except OSError:
        connection.close()


if os.path.exists(path):
    os.unlink(path)
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path)
server.listen(8)
print("listening", flush=True)
while True:
    connection, _ = server.accept()
    print("connected", flush=True)
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
