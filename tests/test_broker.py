"""The venue's filesystem broker never lets the worker read a message before it is whole (config/broker.py)."""

from __future__ import annotations

import os
from queue import Empty

import pytest
from kombu import Connection

from config import broker


@pytest.fixture
def channel(tmp_path):
    folders = {name: tmp_path / name for name in ("queue", "processed")}
    for folder in folders.values():
        folder.mkdir()
    options = {
        "data_folder_in": str(folders["queue"]),
        "data_folder_out": str(folders["queue"]),
        "processed_folder": str(folders["processed"]),
        "store_processed": False,
    }
    with Connection(transport=broker.Transport, transport_options=options) as connection:
        yield connection.default_channel


def test_a_message_goes_through_whole(channel):
    channel._put("celery", {"task": "tournament.tasks.tick", "args": [1, "Łukasz"]})
    assert channel._get("celery") == {"task": "tournament.tasks.tick", "args": [1, "Łukasz"]}
    with pytest.raises(Empty):
        channel._get("celery")


def test_while_a_message_is_being_written_the_worker_finds_nothing(channel, monkeypatch):
    seen = {}
    rename = os.replace

    def look_first(source, target):
        # The moment before the message takes its name: written out, but not yet where the worker looks.
        seen["files"] = sorted(os.listdir(channel.data_folder_in))
        with pytest.raises(Empty):
            channel._get("celery")
        rename(source, target)

    monkeypatch.setattr(broker.os, "replace", look_first)
    channel._put("celery", {"task": "tournament.tasks.ring_bell"})
    assert len(seen["files"]) == 1 and seen["files"][0].endswith(".celery.msg.part")
    assert channel._get("celery") == {"task": "tournament.tasks.ring_bell"}


@pytest.mark.backend  # the pass's own broker
def test_the_filesystem_broker_uses_this_transport_and_redis_its_own(settings):
    if settings.CELERY_BROKER_URL.startswith("filesystem://"):  # the venue pass
        assert settings.CELERY_BROKER_TRANSPORT == "config.broker:Transport"
    else:  # the hosted pass: the URL's own transport
        assert not hasattr(settings, "CELERY_BROKER_TRANSPORT")
