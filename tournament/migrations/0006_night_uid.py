import uuid

from django.db import migrations, models


def give_each_night_a_uid(apps, schema_editor):
    Night = apps.get_model("tournament", "Night")
    for night in Night.objects.filter(uid__isnull=True):
        night.uid = uuid.uuid4()
        night.save(update_fields=["uid"])


class Migration(migrations.Migration):
    dependencies = [("tournament", "0005_table_links_and_submissions")]

    operations = [
        migrations.AddField(model_name="night", name="uid", field=models.UUIDField(null=True, editable=False)),
        migrations.RunPython(give_each_night_a_uid, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="night",
            name="uid",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
    ]
