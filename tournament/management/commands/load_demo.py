"""Load the demo night (fixtures/demo_night.json): 24 players, four games played, game 5 under way."""

from __future__ import annotations

import hashlib
import json
import tempfile
import uuid
from pathlib import Path

from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import IntegrityError, transaction

from tournament.models import Club, Entry, Night, Player, sole_club_id

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "demo_night.json"


def renumbered(rows: list[dict], club_id: int) -> list[dict]:
    """The fixture's rows with ids that follow each table's own, and every reference between them following; its
    night and players are club `club_id`'s.

    The file numbers its rows from 900001, out of the way of anyone's; loaded as they are, the club's next night
    would be number 900002 (long public addresses). Renumbered, the demo is simply the club's next rows.
    """
    fresh: dict[tuple[str, int], int] = {}
    following: dict[str, int] = {}
    for row in rows:
        model = apps.get_model(row["model"])
        label = model._meta.label_lower
        if label not in following:
            following[label] = (model.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
        fresh[label, row["pk"]] = following[label]
        following[label] += 1
    players = {row["pk"]: row["fields"] for row in rows if row["model"] == "tournament.player"}
    out = []
    for row in rows:
        model = apps.get_model(row["model"])
        fields = dict(row["fields"])
        if model is Entry:  # the night keeps its players as they joined it (the file's entries leave it to us)
            player = players[fields["player"]]
            for name in ("name", "category", "club_number"):
                fields.setdefault(name, player.get(name, ""))
        for field in model._meta.get_fields():
            if field.name not in fields or fields[field.name] is None or field.related_model is None:
                continue
            target = field.related_model._meta.label_lower
            if field.many_to_many:
                fields[field.name] = [fresh.get((target, pk), pk) for pk in fields[field.name]]
            elif field.many_to_one or field.one_to_one:
                fields[field.name] = fresh.get((target, fields[field.name]), fields[field.name])
        if model in (Night, Player):
            fields["club"] = club_id
        out.append({**row, "pk": fresh[model._meta.label_lower, row["pk"]], "fields": fields})
    return out


def demo_uid(file_uid: str, club_id: int) -> str:
    """The demo night's identity for club `club_id`: the file's own for a server's first club (a laptop that loaded
    it before knows it so), another for each other club, so that each club of a hosted server can load its own."""
    first = Club.objects.order_by("pk").values_list("pk", flat=True).first()
    return file_uid if club_id == first else str(uuid.uuid5(uuid.UUID(file_uid), f"club:{club_id}"))


def own_identity(rows: list[dict], uid: str, *, derive: bool) -> list[dict]:
    """The rows with the night's identity `uid`; with `derive`, every other value that must be one of a kind on a
    server (a table link's token) made from it."""
    for row in rows:
        model = apps.get_model(row["model"])
        for field in model._meta.concrete_fields:
            value = row["fields"].get(field.name)
            if not field.unique or field.primary_key or value is None:
                continue
            if model is Night and field.name == "uid":
                row["fields"]["uid"] = uid
            elif isinstance(value, str) and derive:
                row["fields"][field.name] = _derived(value, uid)
    return rows


def _derived(value: str, uid: str) -> str:
    """Another value of the same length, made from `value` and the night's identity (letters and digits)."""
    return hashlib.sha256(f"{uid}:{value}".encode()).hexdigest()[: len(value)]


class Command(BaseCommand):
    help = "Load the demo night, unless it is already there. Never touches other nights."

    def add_arguments(self, parser):
        parser.add_argument("--club", default="", help="The club's short address (on a server of several clubs).")

    def handle(self, *args, **options):
        club = Club.objects.filter(slug=options["club"]).first() if options["club"] else None
        if options["club"] and club is None:
            raise CommandError(f"No club has the short address {options['club']!r}.")
        try:
            club_id = club.pk if club else sole_club_id()
        except ValidationError as error:
            raise CommandError("This server holds several clubs: say which with --club.") from error
        rows = json.loads(FIXTURE.read_text(encoding="utf-8"))
        file_uid = next(row["fields"]["uid"] for row in rows if row["model"] == "tournament.night")
        uid = demo_uid(file_uid, club_id)
        if Night.objects.filter(uid=uid).exists():
            raise CommandError("The demo night is already loaded; delete it in the admin first to load it afresh.")
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "demo_night.json"
            made = own_identity(renumbered(rows, club_id), uid, derive=uid != file_uid)
            path.write_text(json.dumps(made, ensure_ascii=False), encoding="utf-8")
            try:
                with transaction.atomic():
                    call_command("loaddata", str(path), verbosity=0)
            except IntegrityError as error:
                raise CommandError(f"The demo night could not be loaded, so nothing was ({error}).") from error
        night = Night.objects.get(uid=uid)
        self.stdout.write(f"Loaded '{night.name}': open {night.get_absolute_url()} (organizer login).")
