"""What the ROS 2 test clients share, as an rmw_zenoh node would do it: the type store of ROS 2
Jazzy's standard messages (rosbags), the key expression of a topic, a sample's attachment, and
a Zenoh session in client mode to the simulator's router (waiting up to 60 s for it: a
station's window may open first)."""
import json
import time

import zenoh
from zenoh.ext import Int64, UInt8, z_serialize
from rosbags.typesys import Stores, get_typestore

store = get_typestore(Stores.ROS2_JAZZY)


def dds(typename):
    package, kind, name = typename.split("/")
    return f"{package}::{kind}::dds_::{name}_"


def key(topic, typename, domain=0):
    return f"{domain}/{topic.strip('/')}/{dds(typename)}/{store.hash_rihs01(typename)}"


def attachment(sequence, gid=7):
    # rmw_zenoh's AttachmentData: sequence number, source timestamp (ns), source GID (16).
    return z_serialize((Int64(sequence), Int64(time.time_ns()), [UInt8(gid)] * 16))


def open_session(endpoint):
    config = zenoh.Config()
    config.insert_json5("mode", '"client"')
    config.insert_json5("connect/endpoints", json.dumps([endpoint]))
    config.insert_json5("scouting/multicast/enabled", "false")
    deadline = time.time() + 60
    while True:
        try:
            return zenoh.open(config)
        except zenoh.ZError:
            if time.time() > deadline:
                raise
            time.sleep(0.5)
