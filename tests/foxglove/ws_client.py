"""A Foxglove WebSocket client that treadsim did not write the libraries of: the `websockets`
package speaks WebSocket, `jsonschema` checks every message against the schema its channel
advertised, Pillow decodes the camera's JPEG. The protocol (`foxglove.sdk.v1`, formerly
`foxglove.websocket.v1`) is followed as Foxglove's spec has it (foxglove/ws-protocol,
docs/spec.md): the server's
`serverInfo` and `advertise` (JSON text), the client's `subscribe`, binary Message Data (opcode
1, subscription id u32 LE, log time u64 LE, payload); as a publishing client, `advertise` and
binary Client Message Data (opcode 1, channel id u32 LE, payload).

It connects (retrying while the seat starts), subscribes to every channel, drives /cmd_vel as
Foxglove's Teleop panel does (geometry_msgs Twist in JSON) at SPEED m/s for SECONDS s, then lets
the command go stale and sends a message that is not JSON and one on a topic the server does
not take, and prints what it saw as JSON.

Usage: ws_client.py URL SPEED SECONDS
"""
import base64
import io
import json
import math
import struct
import sys
import time

import jsonschema
from PIL import Image
from websockets.sync.client import connect

url, speed, seconds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])

deadline = time.time() + 60
while True:
    try:
        ws = connect(url, subprotocols=["foxglove.sdk.v1"], max_size=None, open_timeout=5)
        break
    except (OSError, TimeoutError):
        if time.time() > deadline:
            raise
        time.sleep(0.2)

seen = {
    "subprotocol": ws.subprotocol,
    "server": None,
    "channels": {},
    "messages": {},
    "invalid": [],
    "transform": None,
    "image": None,
    "scene": None,
    "telemetry": [],
    "events": [],
}
channels = {}  # id -> channel
subscriptions = {}  # subscription id -> channel
validators = {}


def subscribe(new):
    subs = []
    for ch in new:
        sub = len(subscriptions) + 1
        subscriptions[sub] = ch
        subs.append({"id": sub, "channelId": ch["id"]})
        if ch.get("schemaEncoding", "jsonschema") == "jsonschema" and ch["encoding"] == "json":
            validators[ch["topic"]] = jsonschema.Draft202012Validator(json.loads(ch["schema"]))
    if subs:
        ws.send(json.dumps({"op": "subscribe", "subscriptions": subs}))


def resubscribe(channel_id):
    """Subscribes again to a channel the server said it did not know although it had advertised
    it: foxglove 0.30.3 (the SDK's Rust server) sends a new channel's advertisement before it
    enters the channel in the client's table, so a client that subscribes at once can be refused
    (fixed upstream by entering it first). Foxglove's app would show the error; the test client
    retries once the table has caught up, and counts it."""
    seen["resubscribed"] = seen.get("resubscribed", 0) + 1
    for sub, ch in subscriptions.items():
        if ch["id"] == channel_id:
            time.sleep(0.05)
            ws.send(json.dumps({"op": "subscribe", "subscriptions": [{"id": sub, "channelId": channel_id}]}))
            return


def take(message):
    if isinstance(message, str):
        m = json.loads(message)
        if m["op"] == "serverInfo":
            seen["server"] = m
        elif m["op"] == "status" and m["message"].startswith("Unknown channel ID: "):
            resubscribe(int(m["message"].rsplit(" ", 1)[1]))
        elif m["op"] == "advertise":
            new = [c for c in m["channels"] if c["id"] not in channels]
            for c in new:
                channels[c["id"]] = c
                seen["channels"][c["topic"]] = {
                    "schemaName": c["schemaName"],
                    "encoding": c["encoding"],
                    "schemaEncoding": c.get("schemaEncoding"),
                }
            subscribe(new)
        return
    opcode = message[0]
    if opcode != 1:
        return
    sub, log_time = struct.unpack_from("<IQ", message, 1)
    topic = subscriptions[sub]["topic"]
    value = json.loads(message[13:])
    seen["messages"][topic] = seen["messages"].get(topic, 0) + 1
    if topic in validators:
        errors = [e.message for e in validators[topic].iter_errors(value)]
        if errors:
            seen["invalid"].append({"topic": topic, "errors": errors[:3]})
    received = time.time()
    if topic == "/foxglove/transforms" and seen["transform"] is None:
        seen["transform"] = value["transforms"][0]
        seen["transform"]["log_time"] = log_time / 1e9
    elif topic == "/foxglove/scene" and seen["scene"] is None:
        seen["scene"] = {
            "entities": [e["id"] for e in value["entities"]],
            "frames": [e["frame_id"] for e in value["entities"]],
            "terrain_indices": sum(len(t["indices"]) for e in value["entities"] for t in e["triangles"]),
        }
    elif topic.startswith("/cameras/") and seen["image"] is None:
        picture = Image.open(io.BytesIO(base64.b64decode(value["data"])))
        picture.load()
        seen["image"] = {
            "topic": topic,
            "format": value["format"],
            "decoded": picture.format,
            "size": list(picture.size),
            "stamp": value["timestamp"]["sec"] + value["timestamp"]["nsec"] / 1e9,
            "received": received,
        }
    elif topic == "/telemetry":
        yaw = value["yaw"]
        v = value["linvel"]
        forward = v["x"] * math.cos(yaw) + v["y"] * math.sin(yaw)
        p = value["position"]
        seen["telemetry"].append({"t": received, "vx": forward, "x": p["x"], "y": p["y"], "z": p["z"]})
    elif topic == "/event":
        seen["events"].append(value["text"])


def pump(duration):
    end = time.time() + duration
    while True:
        left = end - time.time()
        if left <= 0:
            return
        try:
            take(ws.recv(timeout=left))
        except TimeoutError:
            return


# The seat's channels (the camera's is declared at its first picture).
deadline = time.time() + 30
while time.time() < deadline and not any(t.startswith("/cameras/") for t in seen["channels"]):
    pump(0.2)
pump(1.0)

teleop = "clientPublish" in (seen["server"] or {}).get("capabilities", [])
seen["teleop"] = teleop
if teleop:
    ws.send(json.dumps({"op": "advertise", "channels": [
        {"id": 1, "topic": "/cmd_vel", "encoding": "json", "schemaName": "geometry_msgs/msg/Twist"},
        {"id": 2, "topic": "/not_a_command", "encoding": "json", "schemaName": "std_msgs/msg/String"},
    ]}))
    twist = json.dumps({"linear": {"x": speed, "y": 0.0, "z": 0.0},
                        "angular": {"x": 0.0, "y": 0.0, "z": 0.0}}).encode()
    seen["drive_start"] = time.time()
    while time.time() < seen["drive_start"] + seconds:
        ws.send(struct.pack("<BI", 1, 1) + twist)
        pump(0.05)
    seen["drive_end"] = time.time()
    # Stale: the robot must stop by itself.
    pump(2.0)
    seen["stopped_at"] = time.time()
    pump(0.5)
    # Refused: not JSON on /cmd_vel, a topic the server does not take.
    ws.send(struct.pack("<BI", 1, 1) + b"{not json")
    ws.send(struct.pack("<BI", 1, 2) + b'{"data": "hello"}')
    pump(0.5)
else:
    pump(seconds)
ws.close()
print(json.dumps(seen))
