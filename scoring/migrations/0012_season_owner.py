"""Every season belongs to a club: the seasons of before to the first club (tournament 0047 made it)."""

import django.db.models.deletion
from django.db import migrations, models


def into_the_first_club(apps, schema_editor):
    Club = apps.get_model("tournament", "Club")
    Season = apps.get_model("scoring", "Season")
    if Season.objects.filter(owner__isnull=True).exists():
        club = Club.objects.order_by("pk").first() or Club.objects.create(name="Our club", slug="club")
        Season.objects.filter(owner__isnull=True).update(owner=club)


def _owner(null: bool):
    return models.ForeignKey(
        null=null, on_delete=django.db.models.deletion.CASCADE, related_name="seasons", to="tournament.club"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0011_offline_action_keys"),
        ("tournament", "0047_clubs"),
    ]

    operations = [
        migrations.AddField(model_name="season", name="owner", field=_owner(True)),
        migrations.RunPython(into_the_first_club, migrations.RunPython.noop),
        migrations.AlterField(model_name="season", name="owner", field=_owner(False)),
    ]
