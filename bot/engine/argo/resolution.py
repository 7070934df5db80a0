"""Running a root action with its choices, and testing whether choices can be completed."""

from __future__ import annotations

from bot.engine.argo.aliens import alien_kills, move_alien
from bot.engine.argo.building import build
from bot.engine.argo.effects import Ctx, GameOver, Infeasible, NeedDecision
from bot.engine.argo.modules import activate, core_room_deaths, time_machine_tile
from bot.engine.argo.movement import do_move
from bot.engine.argo.state import State
from bot.engine.argo.text import place, who
from bot.engine.core import Action


def dispatch(ctx: Ctx, root: Action) -> None:
    """Apply a root action on the context's state."""
    st = ctx.st
    kind: str = root["type"]
    if kind == "move" and "alien" in root:
        move_alien(ctx, root["alien"], root["to"])
        alien_kills(ctx)
        st.phase = "build"
    elif kind == "kills":
        alien_kills(ctx)
        st.phase = "build"
    elif kind == "build":
        build(ctx, root)
    elif kind == "move":
        do_move(ctx, root)
        st.actions_used += 1
        st.moved = (*st.moved, root["astronaut"])
    elif kind == "activate":
        activate(ctx, root)
        st.actions_used += 1
    elif kind == "timemachine":
        tm = time_machine_tile(st)
        assert tm is not None
        st.own_tokens()
        st.tokens[tm] = (*st.tokens.get(tm, ()), ctx.actor)
        st.activations[ctx.actor] += 1
        if ctx.tell:
            text = f"{who(st, ctx.actor)} activates {place(st, tm)} and acts out of turn."
            ctx.emit(text, "timemachine", module=tm)
        inner = root["do"]
        if inner["type"] == "move":
            do_move(ctx, inner)
        else:
            activate(ctx, inner)
    elif kind == "endturn":
        core_room_deaths(ctx)
    else:  # pragma: no cover - guarded by legal_actions
        raise ValueError(f"unknown action {kind}")


def run(
    st: State, actor: int, root: Action, choices: list[Action], tm: bool = False, tell: bool = True
) -> Ctx:
    """Resolve ``root`` with ``choices`` on a copy of ``st`` (recording events if ``tell``).

    Raises NeedDecision when a further choice is needed and Infeasible when this line of
    choices cannot be completed.
    """
    ctx = Ctx(st.copy(), actor, choices, tm, tell)
    try:  # noqa: SIM105 (contextlib.suppress: a context manager object in Python per resolution)
        dispatch(ctx, root)
    except GameOver:
        pass
    return ctx


def feasible(st: State, actor: int, root: Action, choices: list[Action] | None = None) -> bool:
    """True if some line of further choices completes ``root`` after ``choices``."""
    made = list(choices or [])
    try:
        run(st, actor, root, made, tell=False)
    except Infeasible:
        return False
    except NeedDecision as need:
        if need.safe or need.checked:
            return feasible(st, actor, root, [*made, need.options[0]])
        if need.feasible is not None:
            return bool(need.feasible)
        return any(feasible(st, actor, root, [*made, o]) for o in need.options)
    return True
