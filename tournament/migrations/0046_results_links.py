"""Every roster player gets a results link (a random token, unique), the choice to be left off public lists, and
each entry the moment its results link was e-mailed."""

import secrets

from django.db import migrations, models

import tournament.models


def give_tokens(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    for player in Player.objects.filter(results_token__isnull=True).only("pk"):
        player.results_token = secrets.token_urlsafe(24)
        player.save(update_fields=["results_token"])


class Migration(migrations.Migration):
    dependencies = [("tournament", "0043_draw_key")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="results_token",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(give_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="results_token",
            field=models.CharField(
                default=tournament.models.results_token, editable=False, max_length=64, unique=True
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="unlisted",
            field=models.BooleanField(default=False, verbose_name="leave me off public lists"),
        ),
        migrations.AddField(
            model_name="signup",
            name="unlisted",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="entry",
            name="results_mailed_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
    ]
