"""The wheel: a building's sector by its age, the sector's label and its multiplier N (SPEC §4).

"Sector 0 → 2 → 3 → 4 → 4+ → !": at age 0 (just built or used) a building cannot be used; then its
effect counts ×2, ×3, ×4, and ×4 with 1 franc to the user in "4+". A building reaching "!" at a round
end is sold at once. The numbers come from the catalog's ``wheel``.
"""

from __future__ import annotations

from .catalog import Catalog

SOLD_LABEL = "!"
"""The label of the last sector: reached at a round end, the building is sold for half its value."""


def sector_label(catalog: Catalog, age: int) -> str:
    """The wheel sector of an age: "0", "2", "3", "4", "4+" (a bonus franc adds the "+"), "!"."""
    if age >= catalog.sold_at_age:
        return SOLD_LABEL
    label = str(catalog.multiplier_by_age[age])
    return label + "+" if catalog.bonus_francs_by_age[age] else label


def sector_labels(catalog: Catalog) -> tuple[str, ...]:
    """Every sector's label by age, the "!" sector last: ``("0", "2", "3", "4", "4+", "!")``."""
    return tuple(sector_label(catalog, age) for age in range(catalog.sold_at_age + 1))


def sector_multipliers(catalog: Catalog) -> tuple[int, ...]:
    """The multiplier N by age, ``(0, 2, 3, 4, 4)``: 0 cannot be used; "!" has none (sold)."""
    return catalog.multiplier_by_age
