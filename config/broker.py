"""The venue's broker: kombu's filesystem transport, with every message written whole before it can be read.

Kombu's own `_put` creates the message file under its final name and then writes into it, while the worker takes
any file with that name from the same folder. A worker that looked in between read an empty file, failed to decode
it and stopped ("Unrecoverable error: JSONDecodeError"), and with it the bell. Here a message is written under a
name the worker does not look at and renamed into place once complete; a rename within one folder is atomic, so
the worker sees either no file or the whole message.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


def write_whole(path: str, data: bytes) -> None:
    """Write `data` to `path` so that nobody ever sees the file part-written."""
    partial = f"{path}.part"  # the worker only takes names ending in ".<queue>.msg"
    with open(partial, "wb") as f:
        f.write(data)
    os.replace(partial, path)


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        # The same name kombu gives a message: the time first, so the worker takes them in order.
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        path = os.path.join(self.data_folder_out, name)
        try:
            write_whole(path, str_to_bytes(dumps(payload)))
        except OSError as exc:
            raise ChannelError(f"Cannot add file {path!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
