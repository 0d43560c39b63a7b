"""Causes as data: a reason beside the words on each round and each event, filled in for the rows already stored.

Only adds: the words stay as they were, and the reasons of earlier rows are read from them once, here.
"""

from django.db import migrations, models

REASONS = [
    ("the head table took back", "head_table_undo"),
    ("the head table", "head_table"),
    ("closed by every table is in", "all_in"),
    ("every table is in", "all_in"),
    ("closed by the organizer", "organizer"),
    ("the organizer's button", "button"),
    ("the organizer paused", "paused"),
    ("the organizer resumed", "resumed"),
    ("the organizer added", "extended"),
    ("the organizer", "organizer"),
    ("the timer", "timer"),
    ("the opening draw", "draw"),
    ("players came or went", "reseated"),
    ("the movement after", "movement"),
    ("straight after", "straight_on"),
    ("the break is over", "break_over"),
    ("a ", "break"),
]


def reason_of(words: str) -> str:
    return next((reason for start, reason in REASONS if words.startswith(start)), "")


def fill(apps, schema_editor):
    Round = apps.get_model("tournament", "Round")
    RoundEvent = apps.get_model("tournament", "RoundEvent")
    for round_ in Round.objects.exclude(bell_cause=""):
        Round.objects.filter(pk=round_.pk).update(bell_reason=reason_of(round_.bell_cause))
    for event in RoundEvent.objects.all():
        RoundEvent.objects.filter(pk=event.pk).update(reason=reason_of(event.cause))


CAUSES = [
    ("draw", "the opening draw"),
    ("reseated", "players came or went"),
    ("movement", "the movement after game {game}"),
    ("organizer", "the organizer"),
    ("button", "the organizer's button"),
    ("timer", "the timer"),
    ("head_table", "the head table's hand {hand}"),
    ("head_table_undo", "the head table took back its last hand"),
    ("all_in", "every table is in after the bell"),
    ("straight_on", "straight after game {game}"),
    ("break", "a {minutes}-minute break after game {game}"),
    ("break_over", "the break is over"),
    ("paused", "the organizer paused the timer"),
    ("resumed", "the organizer resumed the timer"),
    ("extended", "the organizer added {minutes}"),
]
ACTIONS = [
    ("seated", "seated"),
    ("reseated", "seated again"),
    ("start", "started"),
    ("break", "a break planned"),
    ("pause", "paused"),
    ("resume", "resumed"),
    ("extend", "extended"),
    ("bell", "the bell"),
    ("unbell", "the bell taken back"),
    ("close", "closed"),
]


class Migration(migrations.Migration):
    dependencies = [("tournament", "0013_tie_chain_head_to_head")]

    operations = [
        migrations.AddField(
            model_name="round",
            name="bell_reason",
            field=models.CharField(blank=True, choices=CAUSES, max_length=20),
        ),
        migrations.AddField(
            model_name="roundevent",
            name="reason",
            field=models.CharField(blank=True, choices=CAUSES, max_length=20),
        ),
        migrations.AlterField(
            model_name="roundevent",
            name="action",
            field=models.CharField(choices=ACTIONS, max_length=20),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
