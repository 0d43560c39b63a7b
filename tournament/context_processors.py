"""The choices templates compare against, by name: `{% if round.status == RoundStatus.BELL %}`, never a bare word."""

from __future__ import annotations

from scoring.models import Season, TableResult

from .models import Night, PrintJob, Round, SignUp
from .selectors import DeskState, Place, RoomState


def choices(request) -> dict[str, type]:
    return {
        "RoundStatus": Round.Status,
        "NightStatus": Night.Status,
        "Movement": Night.Movement,
        "Fill": Night.Fill,
        "ByeCredit": Night.ByeCredit,
        "JobStatus": PrintJob.Status,
        "ResultStatus": TableResult.Status,
        "ResultEntry": TableResult.Entry,
        "SeasonMethod": Season.Method,
        "RoomState": RoomState,
        "DeskState": DeskState,
        "Place": Place,
        "SignUpStatus": SignUp.Status,
    }
