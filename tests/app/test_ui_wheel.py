"""The production wheel: where the building tiles sit."""

from __future__ import annotations

from app.ui.wheel import WHEEL_BOX, tile_positions


def test_tiles_stay_on_the_wheel_box() -> None:
    for sector in range(6):
        for count in range(1, 11):
            spots = tile_positions(sector, count)
            assert len(spots) == count
            for x, y in spots:
                assert 0 < x < 100 and 0 < y < 100
    assert WHEEL_BOX > 200
