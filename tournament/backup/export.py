"""A night into its file: each codec's records read in one query, then written as the schema says."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from typing import Any

from ..models import Entry, Night, Player
from ..schema import FORMAT, NIGHT, PARTS, VERSION, Codec, Names, encode, value_out


def player_key(name: str, house: bool, name_key: str) -> str:
    """A player's key in the file. House players' keys carry their night's database id; in the file they are
    numbered within the night. Others are the name as the night has it, folded (the roster's key when they
    joined): a later change to the roster does not change the night's file."""
    return f"house:{name_key.rsplit(':', 1)[-1]}" if house else Player.key_for(name)


def canonical(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def _records(codec: Codec, night: Night, names: Names, scope: str) -> dict[Any, list[Any]]:
    """The night's records of one kind as the file writes them, by their parent's id: one query for the kind and
    one for each kind below it, whatever the night's size."""
    children = {child: _records(child, night, names, f"{child.parent}__{scope}") for child in codec.children}
    query = (
        codec.model._default_manager.filter(**{scope: night}, **codec.where)
        .select_related(*(codec.field(key).name for key in codec.accounts()), *codec.related)
        .order_by(*codec.order)
    )
    parent = codec.parent_column()
    found: dict[Any, list[Any]] = defaultdict(list)
    for record in query:
        row = encode(codec, record, names)
        if codec.shaped is not None:
            row.update(codec.shaped(record, names))
        for child, rows in children.items():
            if rows.get(record.pk) or not child.omit_empty:
                row[child.key] = rows.get(record.pk, [])
        found[getattr(record, parent) if parent else None].append(row)
    if codec.compact:
        return {key: sorted(rows) for key, rows in found.items()}
    if codec.sort:
        return {key: sorted(rows, key=lambda row: [row[name] for name in codec.sort]) for key, rows in found.items()}
    return found


def night_export(night: Night) -> dict[str, Any]:
    """The night as plain data, with a checksum of its content, in a constant number of queries."""
    entries = Entry.objects.filter(night=night).values_list(
        "pk", "player_id", "name", "player__house", "player__name_key"
    )
    names = Names(players={}, entries={})
    for pk, player, name, house, name_key in entries:
        names.players[player] = names.entries[pk] = player_key(name, house, name_key)
    info = {key: value_out(NIGHT.field(key), night, names) for key in NIGHT.fields}
    info["keepers"] = sorted(night.keepers.values_list("username", flat=True))
    payload = {"format": FORMAT, "version": VERSION, "night": info}
    for codec in PARTS:
        payload[codec.key] = _records(codec, night, names, "night").get(night.pk, [])
    return {**payload, "checksum": hashlib.sha256(canonical(payload)).hexdigest()}


def night_backup_bytes(night: Night) -> bytes:
    return json.dumps(night_export(night), indent=1, sort_keys=True, ensure_ascii=False).encode() + b"\n"
