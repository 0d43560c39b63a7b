"""The only writers for nights, players, rounds and seats. Each service is one transaction.

One module a concern: `nights` (a night's settings, keepers and scoring rules), `players` (who plays) and
`seating` (where they sit: the draw, the next game, byes, charts, swaps and table links). What the pages, the
game's life and the commands call is named here.
"""

from .draws import draw_hide, draw_make
from .money import entry_price_kind, money_settings, payment_refund, payment_take
from .nights import (
    LATER_SETTINGS,
    keeper_add,
    keeper_remove,
    night_create,
    night_delete,
    night_rules_update,
    night_update,
    scoring_game,
)
from .players import (
    entry_check_in_by_phone,
    entry_remove,
    entry_set_active,
    entry_set_checked_in,
    entry_substitute,
    import_preview,
    import_preview_keep,
    players_add_from_roster,
    players_import,
    players_import_confirm,
    players_register,
    room_for,
)
from .pots import pot_carry_take, pot_line_add
from .publish import (
    after_game as publish_after_game,
)
from .publish import (
    club_key_new,
    club_site_set,
    night_publish_live_set,
    night_publish_start,
)
from .results import (
    night_results_public_set,
    player_unlisted_set,
    results_mail_claim,
    results_mail_release,
    results_mail_start,
)
from .seating import (
    entry_set_number,
    night_chart_build,
    night_draw,
    round_seat_next,
    round_tables,
    seating_swap,
    table_link_regenerate,
    table_links_ensure,
)
from .signups import door_walk_in, signup_create, signup_promote, signup_settings, signup_withdraw
from .wishes import night_wishes_set

__all__ = [
    "LATER_SETTINGS",
    "club_key_new",
    "club_site_set",
    "door_walk_in",
    "draw_hide",
    "draw_make",
    "entry_check_in_by_phone",
    "entry_price_kind",
    "entry_remove",
    "entry_set_active",
    "entry_set_checked_in",
    "entry_set_number",
    "entry_substitute",
    "import_preview",
    "import_preview_keep",
    "keeper_add",
    "keeper_remove",
    "money_settings",
    "night_chart_build",
    "night_create",
    "night_delete",
    "night_draw",
    "night_publish_live_set",
    "night_publish_start",
    "night_results_public_set",
    "night_rules_update",
    "night_update",
    "night_wishes_set",
    "payment_refund",
    "payment_take",
    "player_unlisted_set",
    "players_add_from_roster",
    "players_import",
    "players_import_confirm",
    "players_register",
    "pot_carry_take",
    "pot_line_add",
    "publish_after_game",
    "results_mail_claim",
    "results_mail_release",
    "results_mail_start",
    "room_for",
    "round_seat_next",
    "round_tables",
    "scoring_game",
    "seating_swap",
    "signup_create",
    "signup_promote",
    "signup_settings",
    "signup_withdraw",
    "table_link_regenerate",
    "table_links_ensure",
]
