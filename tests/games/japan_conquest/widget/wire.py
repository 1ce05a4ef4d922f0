"""Count what the kernel really sends to the front end: every comm message (``comm_open``,
``comm_msg``, ``comm_close``), serialized the way ipykernel sends it on IOPub.

``Widget._send`` only sees state updates; it misses the comm opens of new widgets, the
closes, and every message's envelope.  A :class:`WireCounter` replaces the comm factory
(``comm.create_comm``) by a comm that builds the same message ipykernel's ``Comm.publish_msg``
builds (content ``{data, comm_id, ...}``, a signed Jupyter message with header and parent
header, the ``comm-<id>`` topic frame) with a real :class:`jupyter_client.session.Session`,
and counts three figures per message:

- ``data``: the JSON of the message's ``data`` (the widget state or update) plus its binary
  buffers, as the session packs it;
- ``frames``: every ZMQ frame of the message (topic, delimiter, HMAC signature, header,
  parent header, metadata, content) plus the buffers: what leaves the kernel;
- ``opens``: how many ``comm_open`` messages (new widgets) there were.

Widgets created before the counter is installed keep their old comm (not counted), so
install it first::

    with WireCounter() as wire:
        app = JapanConquestApp(save_dir=None)
        print(wire.data, wire.frames, wire.opens)
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from typing import Any, Self

import comm
from comm.base_comm import BaseComm
from jupyter_client.session import Session, json_packer

#: the model names of the map (ipyleaflet layers and icons)
MAP_MODELS = ("LeafletPolygonModel", "LeafletPolylineModel", "LeafletMarkerModel", "LeafletDivIconModel",
              "LeafletLayerGroupModel", "LeafletMapModel")


class WireCounter:
    """Counts comm traffic (data, frames, opens) while installed; see the module docstring."""

    def __init__(self) -> None:
        self.session = Session(key=uuid.uuid4().hex.encode(), username="kernel")
        # a click arrives as a comm_msg from the front end: the kernel's replies name it as parent
        self.parent = self.session.msg("comm_msg", {"comm_id": uuid.uuid4().hex, "data": {"method": "custom"}})
        self.models: dict[str, str] = {}  # comm_id -> model name
        self.reset()
        self._saved: Any = None

    def reset(self) -> None:
        """Start counting from zero (the known models are kept)."""
        self.data = 0
        self.frames = 0
        self.opens = 0
        self.messages = 0
        self.data_by_model: Counter[str] = Counter()
        self.opens_by_model: Counter[str] = Counter()
        self.types: Counter[str] = Counter()
        self.sent: list[tuple[str, str, dict]] = []  # (model, message type, data) of each message

    # ------------------------------------------------------------ installation
    def __enter__(self) -> Self:
        counter = self

        class CountingComm(BaseComm):
            def publish_msg(self, msg_type: str, data: Any = None, metadata: Any = None,
                            buffers: Any = None, **keys: Any) -> None:
                counter.count(self, msg_type, data or {}, metadata or {}, buffers or [], keys)

        self._saved = comm.create_comm
        comm.create_comm = lambda *a, **kw: CountingComm(*a, **kw)
        return self

    def __exit__(self, *exc: object) -> None:
        comm.create_comm = self._saved

    # ------------------------------------------------------------ counting
    def count(self, c: BaseComm, msg_type: str, data: dict, metadata: dict, buffers: list, keys: dict) -> None:
        """Serialize one comm message as ipykernel does and add it to the figures."""
        if msg_type == "comm_open":
            self.models[c.comm_id] = str(data.get("state", {}).get("_model_name", "?"))
        model = self.models.get(c.comm_id, "?")
        buf = sum(len(memoryview(b).cast("B")) for b in buffers)
        n_data = len(json_packer(data)) + buf
        content = dict(data=data, comm_id=c.comm_id, **keys)
        msg = self.session.msg(msg_type, content, parent=self.parent, metadata=metadata)
        frames = self.session.serialize(msg, ident=c.topic)
        self.data += n_data
        self.frames += sum(len(f) for f in frames) + buf
        self.messages += 1
        self.types[msg_type] += 1
        self.sent.append((model, msg_type, data))
        self.data_by_model[model] += n_data
        if msg_type == "comm_open":
            self.opens += 1
            self.opens_by_model[model] += 1

    def map_data(self) -> int:
        """Data bytes of the map's models (polygons, lines, markers, icons, the map)."""
        return sum(n for m, n in self.data_by_model.items() if m in MAP_MODELS)

    def summary(self) -> str:
        """One line: the three figures and the biggest senders."""
        top = ", ".join(f"{m} {n:,}" for m, n in self.data_by_model.most_common(6))
        return f"data {self.data:,} B, frames {self.frames:,} B, {self.messages} messages, {self.opens} opens ({top})"


def state_request_bytes() -> int:
    """What a front end's state request returns: the state of every live widget (JSON)."""
    from ipywidgets.widgets.widget import _instances

    return sum(len(json.dumps(w.get_state(), default=str)) for w in list(_instances.values()))
