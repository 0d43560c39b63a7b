"""A pot line that took in a carried jackpot names the carry (the carrying night's uid and its line number), so the
carry is taken in once even after either night is deleted and restored (#34, item 10)."""

from django.db import migrations, models
from django.db.models import Q


def name_the_carries(apps, schema_editor):
    PotLine = apps.get_model("tournament", "PotLine")
    for line in PotLine.objects.filter(carried_from__isnull=False).select_related("carried_from__night"):
        carry = line.carried_from
        earlier = PotLine.objects.filter(night_id=carry.night_id).filter(
            Q(at__lt=carry.at) | Q(at=carry.at, id__lt=carry.pk)
        )
        line.carry_named = f"{carry.night.uid}:{earlier.count() + 1}"
        line.save(update_fields=["carry_named"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0041_rank_chain"),
    ]

    operations = [
        migrations.AddField(
            model_name="potline",
            name="carry_named",
            field=models.CharField(blank=True, default="", max_length=50),
        ),
        migrations.RunPython(name_the_carries, migrations.RunPython.noop),
    ]
