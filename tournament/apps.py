from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import post_save


def _account_made(sender, instance, created, raw=False, **kwargs):
    if created and not raw:
        from .services.clubs import account_made

        account_made(user=instance)


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Euchre nights"

    def ready(self):
        # every new account works for a club from its first moment, whatever made it (tournament.services.clubs)
        post_save.connect(_account_made, sender=settings.AUTH_USER_MODEL, dispatch_uid="headtable-account-club")
