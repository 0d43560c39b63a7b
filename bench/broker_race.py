"""Does the venue broker ever hand the worker a half-written message? kombu's filesystem transport against ours.

One process puts messages (20 kB each, as fast as it can) while this one takes them, for each transport in turn,
and counts the messages taken whole and those that could not be decoded (each of which stops a real worker).

Run from the project root:  .venv/bin/python bench/broker_race.py [--messages 3000]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
from pathlib import Path
from queue import Empty

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kombu import Connection
from kombu.transport import filesystem

from config import broker


def _connection(transport, folder: str) -> Connection:
    options = {
        "data_folder_in": folder,
        "data_folder_out": folder,
        "processed_folder": folder + "-processed",
        "store_processed": False,
    }
    return Connection(transport=transport, transport_options=options)


def _put_all(transport, folder: str, count: int) -> None:
    with _connection(transport, folder) as connection:
        for number in range(count):
            connection.default_channel._put("celery", {"number": number, "padding": "x" * 20_000})


def race(transport, count: int) -> tuple[int, int]:
    """Messages taken whole, and messages that could not be decoded."""
    folder = tempfile.mkdtemp(prefix="headtable-broker-")
    os.mkdir(folder + "-processed")
    writer = multiprocessing.Process(target=_put_all, args=(transport, folder, count))
    writer.start()
    whole = broken = 0
    with _connection(transport, folder) as connection:
        channel = connection.default_channel
        while whole + broken < count:
            try:
                channel._get("celery")
                whole += 1
            except Empty:
                if not writer.is_alive() and not any(name.endswith(".msg") for name in os.listdir(folder)):
                    break
            except ValueError:  # json.JSONDecodeError: an empty or half-written file
                broken += 1
    writer.join()
    return whole, broken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=3000)
    args = parser.parse_args()
    transports = (("kombu's filesystem transport", filesystem.Transport), ("config.broker", broker.Transport))
    for label, transport in transports:
        whole, broken = race(transport, args.messages)
        print(f"{label:<30} {whole:>6} taken whole, {broken:>5} unreadable of {args.messages}")


if __name__ == "__main__":
    main()
