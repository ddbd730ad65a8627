"""A ROS 2 client that treadsim did not write (Eclipse Zenoh's Python API and `rosbags`, as in
ros2_client.py) working the arm: it reads /joint_states until the arm's joints are there,
sends a trajectory_msgs/msg/JointTrajectory on /arm/joint_trajectory (turret and shoulder to
the positions given) and a std_msgs/msg/Float64 grip force on /gripper/force, waits, and prints
the joint states before and after as JSON.

Usage: ros2_arm.py ENDPOINT TURRET SHOULDER FORCE
"""
import json
import sys
import time

from rmw import attachment, key, open_session, store

endpoint = sys.argv[1]
turret, shoulder, force = (float(x) for x in sys.argv[2:5])
session = open_session(endpoint)

states = []
with session:
    def on_joints(sample):
        msg = store.deserialize_cdr(bytes(sample.payload.to_bytes()), "sensor_msgs/msg/JointState")
        states.append({n: [p, e] for n, p, e in zip(msg.name, msg.position, msg.effort)})

    joints = session.declare_subscriber(key("/joint_states", "sensor_msgs/msg/JointState"), on_joints)
    deadline = time.time() + 30
    while time.time() < deadline and not (states and "turret" in states[-1]):
        time.sleep(0.1)
    before = states[-1] if states else {}
    Trajectory = store.types["trajectory_msgs/msg/JointTrajectory"]
    Point = store.types["trajectory_msgs/msg/JointTrajectoryPoint"]
    Header = store.types["std_msgs/msg/Header"]
    Time = store.types["builtin_interfaces/msg/Time"]
    Duration = store.types["builtin_interfaces/msg/Duration"]
    Float64 = store.types["std_msgs/msg/Float64"]
    import numpy as np
    trajectory = Trajectory(
        header=Header(stamp=Time(sec=0, nanosec=0), frame_id=""),
        joint_names=["turret", "shoulder"],
        points=[Point(positions=np.array([turret, shoulder]), velocities=np.array([], dtype=float),
                      accelerations=np.array([], dtype=float), effort=np.array([], dtype=float),
                      time_from_start=Duration(sec=2, nanosec=0))],
    )
    arm = session.declare_publisher(key("/arm/joint_trajectory", "trajectory_msgs/msg/JointTrajectory"))
    grip = session.declare_publisher(key("/gripper/force", "std_msgs/msg/Float64"))
    arm.put(bytes(store.serialize_cdr(trajectory, "trajectory_msgs/msg/JointTrajectory")),
            attachment=attachment(1, 9))
    grip.put(bytes(store.serialize_cdr(Float64(data=force), "std_msgs/msg/Float64")),
             attachment=attachment(2, 9))
    time.sleep(4.0)
    after = states[-1] if states else {}
    joints.undeclare()
print(json.dumps({"before": before, "after": after, "messages": len(states)}))
