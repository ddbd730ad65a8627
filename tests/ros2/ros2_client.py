"""A ROS 2 client that treadsim did not write: Eclipse Zenoh's Python API and the `rosbags`
package (its CDR serializer and its RIHS01 type hashes for the standard messages), speaking
rmw_zenoh's conventions as a ROS 2 node with RMW_IMPLEMENTATION=rmw_zenoh_cpp would.

It connects to treadsim's Zenoh router, lists the ROS graph from the liveliness tokens as
`ros2 node list` and `ros2 topic list -t` would, subscribes to /odom and the front camera's
JPEG stream (decoded with Pillow) and /diagnostics, drives the robot with /cmd_vel (Twist) for a few seconds,
and prints what it saw as JSON.

Usage: ros2_client.py ENDPOINT SPEED SECONDS
"""
import io
import json
import sys
import time

from PIL import Image

from zenoh.ext import Int64, UInt8, z_deserialize

from rmw import attachment, key, open_session, store

endpoint, speed, seconds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])


out = {"nodes": [], "topics": [], "odom": [], "attachments_ok": 0, "attachments_bad": 0,
       "images": [], "diagnostics": []}
session = open_session(endpoint)
with session:
    # The graph, as `ros2 node list` and `ros2 topic list -t` read it.
    deadline = time.time() + 20
    while time.time() < deadline and not out["topics"]:
        for reply in session.liveliness().get("@ros2_lv/0/**", timeout=2.0):
            if reply.ok is None:
                continue
            parts = str(reply.ok.key_expr).split("/")
            kind, namespace, node = parts[5], parts[7], parts[8]
            name = namespace.replace("%", "/").rstrip("/") + "/" + node
            if kind == "NN":
                out["nodes"].append(name)
            elif kind in ("MP", "MS"):
                topic = parts[9].replace("%", "/")
                type_dds, type_hash = parts[10], parts[11]
                out["topics"].append(
                    {"node": name, "kind": kind, "topic": topic, "type": type_dds,
                     "hash": type_hash, "qos": parts[12]}
                )
        if not out["topics"]:
            time.sleep(0.5)

    def on_odom(sample):
        msg = store.deserialize_cdr(bytes(sample.payload.to_bytes()), "nav_msgs/msg/Odometry")
        out["odom"].append(
            {"t": time.time(), "frame": msg.header.frame_id, "child": msg.child_frame_id,
             "stamp": msg.header.stamp.sec + 1e-9 * msg.header.stamp.nanosec,
             "x": msg.pose.pose.position.x, "y": msg.pose.pose.position.y,
             "vx": msg.twist.twist.linear.x, "wz": msg.twist.twist.angular.z}
        )
        try:
            seq, stamp, gid = z_deserialize(tuple[Int64, Int64, list[UInt8]], sample.attachment)
            ok = int(seq) > 0 and len(gid) == 16 and abs(int(stamp) - time.time_ns()) < 5e9
        except Exception:  # noqa: BLE001 - a bad attachment is counted
            ok = False
        out["attachments_ok" if ok else "attachments_bad"] += 1

    def on_image(sample):
        msg = store.deserialize_cdr(
            bytes(sample.payload.to_bytes()), "sensor_msgs/msg/CompressedImage")
        picture = Image.open(io.BytesIO(bytes(msg.data)))
        picture.load()
        out["images"].append(
            {"t": time.time(), "format": msg.format, "frame": msg.header.frame_id,
             "stamp": msg.header.stamp.sec + 1e-9 * msg.header.stamp.nanosec,
             "size": list(picture.size), "mode": picture.mode,
             "mean": sum(picture.convert("L").getdata()) / (picture.size[0] * picture.size[1])}
        )

    def on_diagnostics(sample):
        msg = store.deserialize_cdr(
            bytes(sample.payload.to_bytes()), "diagnostic_msgs/msg/DiagnosticArray")
        out["diagnostics"].append(
            {"t": time.time(),
             "status": [{"level": int(s.level), "name": s.name, "message": s.message,
                         "hardware_id": s.hardware_id,
                         "values": {v.key: v.value for v in s.values}} for s in msg.status]}
        )

    diagnostics = session.declare_subscriber(
        key("/diagnostics", "diagnostic_msgs/msg/DiagnosticArray"), on_diagnostics)
    subscriber = session.declare_subscriber(key("/odom", "nav_msgs/msg/Odometry"), on_odom)
    images = session.declare_subscriber(
        key("/front/image_raw/compressed", "sensor_msgs/msg/CompressedImage"), on_image)
    publisher = session.declare_publisher(key("/cmd_vel", "geometry_msgs/msg/Twist"))
    Twist = store.types["geometry_msgs/msg/Twist"]
    Vector3 = store.types["geometry_msgs/msg/Vector3"]
    command = Twist(linear=Vector3(x=speed, y=0.0, z=0.0), angular=Vector3(x=0.0, y=0.0, z=0.0))
    payload = bytes(store.serialize_cdr(command, "geometry_msgs/msg/Twist"))
    started = time.time()
    out["drive_started"] = started
    sequence = 0
    while time.time() - started < seconds:
        sequence += 1
        publisher.put(payload, attachment=attachment(sequence))
        time.sleep(0.05)
    out["drive_ended"] = time.time()
    # Then nothing: the robot must stop by itself once the command is stale.
    time.sleep(1.5)
    # Garbage the robot must refuse (and count): not CDR, cut short, a NaN speed.
    nan = Twist(linear=Vector3(x=float("nan"), y=0.0, z=0.0), angular=Vector3(x=0.0, y=0.0, z=0.0))
    for junk in (b"junk", payload[:20], bytes(store.serialize_cdr(nan, "geometry_msgs/msg/Twist"))):
        sequence += 1
        publisher.put(junk, attachment=attachment(sequence))
    time.sleep(0.5)
    out["still_after_junk"] = out["odom"][-1]["vx"] if out["odom"] else None
    subscriber.undeclare()
    images.undeclare()
    diagnostics.undeclare()
print(json.dumps(out))
