"""Writes a drive log as a ROS 2 bag in MCAP with a writer treadsim did not write (`rosbags`),
as `ros2 bag record -s mcap` would record a skid-steered robot: its odometry as
nav_msgs/msg/Odometry on /odom and its tracks' speeds either as its diff-drive controller's
commands (MODE cmd_vel: geometry_msgs/msg/Twist on /cmd_vel) or as its sprockets' joint states
(MODE joint_states: sensor_msgs/msg/JointState on /joint_states). The log is treadsim
calibrate's CSV (t, x, y, yaw, and left_command, right_command for cmd_vel or
left_belt_speed, right_belt_speed for joint_states). Commands become v = (left + right)/2 and
w = (right - left)/VALUE, VALUE the controller's track gauge (m); belt speeds become the
joints left_sprocket_joint and right_sprocket_joint at speed/VALUE rad/s, VALUE the sprocket
radius (m). Each row is recorded at its time (odometry first, then the speeds that follow it).

Usage: ros2_bag.py LOG.csv MODE VALUE OUT_DIR
"""
import csv
import math
import sys
from pathlib import Path

import numpy
from rosbags.rosbag2 import StoragePlugin, Writer
from rosbags.typesys import Stores, get_typestore

log, mode, value, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), Path(sys.argv[4])
assert mode in ("cmd_vel", "joint_states"), mode
store = get_typestore(Stores.ROS2_HUMBLE)
T = store.types
Odometry, Twist = T["nav_msgs/msg/Odometry"], T["geometry_msgs/msg/Twist"]
Header, Time = T["std_msgs/msg/Header"], T["builtin_interfaces/msg/Time"]
Pose, PoseCov = T["geometry_msgs/msg/Pose"], T["geometry_msgs/msg/PoseWithCovariance"]
TwistCov, Point = T["geometry_msgs/msg/TwistWithCovariance"], T["geometry_msgs/msg/Point"]
Quaternion, Vector3 = T["geometry_msgs/msg/Quaternion"], T["geometry_msgs/msg/Vector3"]
JointState = T["sensor_msgs/msg/JointState"]
covariance = numpy.zeros(36)

# Recorded from a robot whose clock started long ago: only differences of log time count.
start = 1_700_000_000_000_000_000
with Writer(out, version=8, storage_plugin=StoragePlugin.MCAP) as writer:
    odom = writer.add_connection("/odom", Odometry.__msgtype__, typestore=store)
    if mode == "cmd_vel":
        speeds = writer.add_connection("/cmd_vel", Twist.__msgtype__, typestore=store)
    else:
        speeds = writer.add_connection("/joint_states", JointState.__msgtype__, typestore=store)
    with open(log) as f:
        for row in csv.DictReader(f):
            t = float(row["t"])
            ns = start + round(t * 1e9)
            yaw = float(row["yaw"])
            stamp = Time(sec=ns // 1_000_000_000, nanosec=ns % 1_000_000_000)
            pose = Pose(
                position=Point(x=float(row["x"]), y=float(row["y"]), z=0.0),
                orientation=Quaternion(x=0.0, y=0.0, z=math.sin(yaw / 2), w=math.cos(yaw / 2)),
            )
            zero = Vector3(x=0.0, y=0.0, z=0.0)
            message = Odometry(
                header=Header(stamp=stamp, frame_id="odom"),
                child_frame_id="base_link",
                pose=PoseCov(pose=pose, covariance=covariance),
                twist=TwistCov(twist=Twist(linear=zero, angular=zero), covariance=covariance),
            )
            writer.write(odom, ns, store.serialize_cdr(message, Odometry.__msgtype__))
            if mode == "cmd_vel":
                left, right = float(row["left_command"]), float(row["right_command"])
                message = Twist(
                    linear=Vector3(x=(left + right) / 2, y=0.0, z=0.0),
                    angular=Vector3(x=0.0, y=0.0, z=(right - left) / value),
                )
            else:
                left, right = float(row["left_belt_speed"]), float(row["right_belt_speed"])
                message = JointState(
                    header=Header(stamp=stamp, frame_id=""),
                    name=["left_sprocket_joint", "right_sprocket_joint"],
                    position=numpy.zeros(2),
                    velocity=numpy.array([left / value, right / value]),
                    effort=numpy.zeros(0),
                )
            writer.write(speeds, ns + 1000, store.serialize_cdr(message, message.__msgtype__))
print(next(out.glob("*.mcap")))
