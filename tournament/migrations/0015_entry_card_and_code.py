"""Every player's tally-card number and confirmation code, stored with the night.

Until now a card showed the player's database id, which changes on another laptop and is public: existing entries
keep that number as their card number (so cards already printed stay true) and get a fresh random code.
"""

import secrets

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


def fill(apps, schema_editor):
    Entry = apps.get_model("tournament", "Entry")
    codes: dict[int, set[str]] = {}
    for entry in Entry.objects.order_by("pk"):
        taken = codes.setdefault(entry.night_id, set())
        while True:
            code = str(1000 + secrets.randbelow(9000))
            if code not in taken:
                break
        taken.add(code)
        entry.card = entry.player_id
        entry.code = code
        entry.save(update_fields=["card", "code"])


class Migration(migrations.Migration):
    dependencies = [("tournament", "0014_round_and_event_reasons")]

    operations = [
        migrations.CreateModel(
            name="CodeMiss",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("table", models.PositiveSmallIntegerField()),
                ("at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "round",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="code_misses",
                        to="tournament.round",
                    ),
                ),
            ],
            options={"ordering": ["round", "table", "at"]},
        ),
        migrations.AddField(
            model_name="entry", name="card", field=models.PositiveIntegerField("tally-card number", null=True)
        ),
        migrations.AddField(
            model_name="entry",
            name="code",
            field=models.CharField("confirmation code", max_length=4, default=""),
            preserve_default=False,
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="entry", name="card", field=models.PositiveIntegerField("tally-card number")
        ),
        migrations.AddConstraint(
            model_name="entry",
            constraint=models.UniqueConstraint(fields=("night", "card"), name="entry_card_once_per_night"),
        ),
        migrations.AddConstraint(
            model_name="entry",
            constraint=models.UniqueConstraint(fields=("night", "code"), name="entry_code_once_per_night"),
        ),
    ]
