"""Opens a treadsim log with readers we did not write: the `mcap` package finds the Foxglove
channels and their schemas (the scene, transforms and the moving bodies), and the Foxglove
SDK's own message classes (`foxglove.messages`)
are built from every Foxglove message and encoded, so each field is one Foxglove's types
have, of the right type. Prints what it found as JSON.

Usage: foxglove_log.py LOG
"""
import base64
import io
import json
import sys

from PIL import Image

import foxglove.messages as fm
from mcap.reader import make_reader

# Each Foxglove type treadsim writes: its fields and what they hold (a type name, a list of
# one, or a plain value).
FIELDS = {
    "FrameTransforms": {"transforms": ["FrameTransform"]},
    "FrameTransform": {"timestamp": "Timestamp", "parent_frame_id": str, "child_frame_id": str,
                       "translation": "Vector3", "rotation": "Quaternion"},
    "SceneUpdate": {"deletions": [None], "entities": ["SceneEntity"]},
    "SceneEntity": {"timestamp": "Timestamp", "frame_id": str, "id": str, "lifetime": "Duration",
                    "frame_locked": bool, "metadata": [None], "arrows": [None],
                    "cubes": ["CubePrimitive"], "spheres": ["SpherePrimitive"],
                    "cylinders": ["CylinderPrimitive"],
                    "lines": ["LinePrimitive"], "triangles": ["TriangleListPrimitive"], "texts": [None],
                    "models": [None]},
    "CubePrimitive": {"pose": "Pose", "size": "Vector3", "color": "Color"},
    "SpherePrimitive": {"pose": "Pose", "size": "Vector3", "color": "Color"},
    "LinePrimitive": {"type": "LineType", "pose": "Pose", "thickness": float, "scale_invariant": bool,
                      "points": ["Point3"], "color": "Color", "colors": ["Color"], "indices": [int]},
    "CylinderPrimitive": {"pose": "Pose", "size": "Vector3", "bottom_scale": float,
                          "top_scale": float, "color": "Color"},
    "TriangleListPrimitive": {"pose": "Pose", "points": ["Point3"], "color": "Color",
                              "colors": ["Color"], "indices": [int]},
    "CompressedImage": {"timestamp": "Timestamp", "frame_id": str, "data": "base64",
                        "format": str},
    "Pose": {"position": "Vector3", "orientation": "Quaternion"},
    "Timestamp": {"sec": int, "nsec": int},
    "Duration": {"sec": int, "nsec": int},
    "Vector3": {"x": float, "y": float, "z": float},
    "Point3": {"x": float, "y": float, "z": float},
    "Quaternion": {"x": float, "y": float, "z": float, "w": float},
    "Color": {"r": float, "g": float, "b": float, "a": float},
}


def build(name, value):
    """The Foxglove SDK's message `name` from treadsim's JSON `value` (an unknown field or a
    wrong type raises)."""
    kwargs = {}
    for field, held in value.items():
        kind = FIELDS[name][field]
        if kind == "base64":
            kwargs[field] = base64.b64decode(held, validate=True)
        elif kind == "LineType":
            # An enum in the SDK, its number in JSON (0 strip, 1 loop, 2 list).
            kinds = [fm.LinePrimitiveLineType.LineStrip, fm.LinePrimitiveLineType.LineLoop,
                     fm.LinePrimitiveLineType.LineList]
            assert isinstance(held, int) and held in [k.value for k in kinds], held
            kwargs[field] = [k for k in kinds if k.value == held][0]
        elif isinstance(kind, list):
            item = kind[0]
            if item is None:
                assert held == [], f"{name}.{field} holds {held!r}"
                continue
            kwargs[field] = [build(item, v) if isinstance(item, str) else item(v) for v in held]
        elif isinstance(kind, str):
            kwargs[field] = build(kind, held)
        else:
            assert isinstance(held, kind) or (kind is float and isinstance(held, int)), \
                f"{name}.{field} = {held!r} is not {kind.__name__}"
            kwargs[field] = kind(held)
    return getattr(fm, name)(**kwargs)


out = {"channels": {}, "built": {}, "first_transform": None, "scene_entities": [],
       "bodies": None, "images": {}}
with open(sys.argv[1], "rb") as f:
    reader = make_reader(f)
    for schema, channel, message in reader.iter_messages():
        if not schema.name.startswith("foxglove."):
            continue
        out["channels"][channel.topic] = {
            "schema": schema.name, "schema_encoding": schema.encoding,
            "message_encoding": channel.message_encoding,
            "schema_title": json.loads(schema.data)["title"],
        }
        value = json.loads(message.data)
        built = build(schema.name.removeprefix("foxglove."), value)
        assert len(built.encode()) > 0
        out["built"][channel.topic] = out["built"].get(channel.topic, 0) + 1
        if schema.name == "foxglove.FrameTransforms" and out["first_transform"] is None:
            out["first_transform"] = value["transforms"][0]
        if schema.name == "foxglove.CompressedImage":
            seen = out["images"].setdefault(channel.topic, {"count": 0, "stamps": []})
            seen["count"] += 1
            stamp = value["timestamp"]
            seen["stamps"].append(stamp["sec"] + stamp["nsec"] / 1e9)
            picture = Image.open(io.BytesIO(base64.b64decode(value["data"])))
            picture.load()
            seen["size"] = list(picture.size)
            seen["format"] = picture.format
        if channel.topic == "/foxglove/bodies" and out["bodies"] is None:
            out["bodies"] = sorted(
                (e["id"], [k for k in ("cubes", "spheres", "cylinders", "lines") if e[k]][0])
                for e in value["entities"]
            )
        if channel.topic == "/foxglove/scene":
            out["scene_entities"] = [
                {"id": e["id"], "frame": e["frame_id"], "cubes": len(e["cubes"]),
                 "triangles": len(e["triangles"]), "lines": len(e["lines"])}
                for e in value["entities"]
            ]
print(json.dumps(out))
