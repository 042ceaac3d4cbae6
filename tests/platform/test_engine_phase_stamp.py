"""Events carry the key of the phase that produced them, and Pax Britannica's
reports place stamped events exactly."""
from pbem.base import registry
from pbem.kit.dice import SeededDice
from pbem.kit.engine import run_phases


def test_every_event_is_stamped_with_its_phase():
    game = registry.load_extra("tests.beacon:GAME")
    state = game.setup(["North", "South"], {}, SeededDice(seed="s", context="setup"))
    steps = run_phases(game, state, {}, lambda ph: SeededDice(seed="s", context=ph.key))
    assert [s.phase.key for s in steps] == ["1/orders", "1/tally"]
    for step in steps:
        assert step.events and all(e["phase_key"] == step.phase.key for e in step.events)


def test_stamped_events_are_placed_exactly_whatever_their_kind():
    from games.pax_britannica.report import phases as report_phases

    state = {"turn": 1888, "phase": "movement"}
    # A marker event could come from five phases; its stamp says which.
    events = [{"kind": "marker", "reason": "x", "phase_key": "1884/minor_powers"},
              {"kind": "marker", "reason": "x", "phase_key": "1888/random_events"},
              {"kind": "marker", "reason": "gm"}]
    places = report_phases.place(state, events)
    phases = report_phases.PHASES
    assert places[0] == (1884, phases.index("minor_powers"))
    assert places[1] == (1888, phases.index("random_events"))
    assert places[2] == report_phases.GM
