"""Clubs kept apart on one server: every night, roster player and season belongs to a club, every account works for
one. What is here moves into a first club, losing nothing: every night, player and account of before is that club's
(the laptop at the venue is one club). With them, what publishing to a club's site and its public results need."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def into_the_first_club(apps, schema_editor):
    Club = apps.get_model("tournament", "Club")
    Membership = apps.get_model("tournament", "Membership")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    models_here = [apps.get_model("tournament", name) for name in ("Night", "Player")] + [User]
    if not any(model.objects.exists() for model in models_here):
        return  # a new server: its first club is made by add_club, or by the laptop's first account or night
    club = Club.objects.order_by("pk").first() or Club.objects.create(name="Our club", slug="club")
    for name in ("Night", "Player"):
        apps.get_model("tournament", name).objects.filter(club__isnull=True).update(club=club)
    accounts = User.objects.filter(membership__isnull=True).values_list("pk", flat=True)
    Membership.objects.bulk_create([Membership(user_id=pk, club=club) for pk in accounts])


def _club(null: bool, related_name: str):
    return models.ForeignKey(
        null=null, on_delete=django.db.models.deletion.CASCADE, related_name=related_name, to="tournament.club"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0046_results_links"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Club",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=120)),
                ("slug", models.SlugField(max_length=40, unique=True, verbose_name="short address")),
                ("publish_key_hash", models.CharField(blank=True, editable=False, max_length=64)),
                ("site_address", models.URLField(blank=True, verbose_name="the club's site")),
                ("site_key", models.CharField(blank=True, max_length=64, verbose_name="publishing key")),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={"ordering": ["name", "id"]},
        ),
        migrations.CreateModel(
            name="Membership",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("club", _club(False, "members")),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="membership",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.AddField(model_name="night", name="club", field=_club(True, "nights")),
        migrations.AddField(model_name="player", name="club", field=_club(True, "players")),
        migrations.RunPython(into_the_first_club, migrations.RunPython.noop),
        migrations.AlterField(model_name="night", name="club", field=_club(False, "nights")),
        migrations.AlterField(model_name="player", name="club", field=_club(False, "players")),
        migrations.AlterField(
            model_name="player", name="name_key", field=models.CharField(editable=False, max_length=80)
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(fields=("club", "name_key"), name="player_name_once_a_club"),
        ),
        migrations.AddField(
            model_name="night",
            name="results_public",
            field=models.BooleanField(default=False, verbose_name="show on the club's public results"),
        ),
        migrations.AddField(
            model_name="night",
            name="publish_live",
            field=models.BooleanField(default=False, verbose_name="publish to the club's site after each game"),
        ),
        migrations.AddField(
            model_name="night",
            name="published_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
    ]
