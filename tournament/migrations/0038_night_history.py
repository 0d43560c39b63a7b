"""Each night keeps its players as it had them (#34, item 9): an entry's name, category and club number, filled for
the nights already here from the roster as it stands."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill_from_roster(apps, schema_editor):
    Entry = apps.get_model("tournament", "Entry")
    Player = apps.get_model("tournament", "Player")
    for field in ("name", "category", "club_number"):
        Entry.objects.update(**{field: Subquery(Player.objects.filter(pk=OuterRef("player_id")).values(field)[:1])})


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0039_carry_named"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="name",
            field=models.CharField(default="", max_length=80),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="entry",
            name="category",
            field=models.CharField(blank=True, max_length=40),
        ),
        migrations.AddField(
            model_name="entry",
            name="club_number",
            field=models.CharField(blank=True, max_length=20, verbose_name="club or membership number"),
        ),
        migrations.RunPython(fill_from_roster, migrations.RunPython.noop),
    ]
