"""The pages of ``/game rules game:Argoat``: plain data, written for this bot from the rulebook
(Q&A included) and docs/rules-notes.md. Frontier actions, Item effects and when Items may be
used come from data.py; this module adds the details and the bot's words."""

from __future__ import annotations

from bot.engine.argoat.data import (
    BANK_SIZE,
    CARAVAN,
    CAVE,
    DARK_FORESTS,
    DEFAULT_DIFFICULTY,
    DEFAULT_TRADE_WAIT,
    DIFFICULTIES,
    EDEN,
    FOUNTAIN,
    FRAGMENT,
    FRAGMENT_BY_KEY,
    FRAGMENT_COPIES,
    FRAGMENTS,
    FRONTIERS,
    HILL,
    HOLLOW,
    ITEM_COPIES,
    ITEM_RULES,
    ITEMS,
    MARKERS_PER_PLAYER,
    PALACE,
    SNOWFIELDS,
    START_EMERALDS,
    TEMPLE,
    TOWN,
    TRAIL,
    WASTELAND,
    Frontier,
    starting_frontiers,
)
from bot.engine.core import HelpPage

BASICS, FRONTIER_GROUP, ITEM_GROUP, FORESTS = "Basics", "Frontiers", "Items", "Dark Forest"

_DETAILS: dict[str, str] = {
    TOWN: "You choose where the drawn Frontier goes (`place 2,1`): every side must match its "
    "neighbours, road to road and blank to blank, and one road must join the map; cards are "
    "never turned. One that fits nowhere is shown and goes to the bottom of the Discovery Deck. "
    "A Frontier with the Dragon symbol brings a Dark Forest, which you place next to it too "
    "(see `darkness-deck`). Then you take one Emerald. With the Discovery Deck or the Bank "
    "empty, nothing at all happens (Q5).",
    FRAGMENT: "Ending your turn here gives you this Fragment once: you never hold two copies, and "
    "if no copy is left in the Reliquary you get nothing.",
    CAVE: "With the Bank empty, nothing happens (Q5).",
    CARAVAN: "`end pay` or `end pass`; paying is offered only if you have an Emerald and the "
    "Supply is not empty. The Item comes by DM and arrives as your turn ends, so you can use it "
    "from your next turn (Q13).",
    TEMPLE: "It stacks with the Water of Life: each gives one extra turn.",
    SNOWFIELDS: "Not optional: when a Bleina stands on another Frontier you must call one and "
    "you choose which (`end 1,0`). Your turn is over, so you cannot ride it until your next "
    "turn (Q13).",
    FOUNTAIN: "`end Moon` (the Fragment you buy) or `end pass`; only Fragments with a copy left "
    "are offered. If you buy, you go straight to the Frontier Town and do not resolve the Town "
    "(Q11), even if your turn began there.",
    HILL: "`end pay` or `end pass`. The drawn card is shown to everyone and its action resolves "
    "where you stand: the Labous Snowfields calls a Bleina to you, an Unmarked Trail leads to a "
    "Trail on the map, the Fountain sends you home. If it needs a choice you make only that "
    "choice, no trade (Q12). Then it goes to the bottom of the Discovery Deck, and nobody may "
    "see it there or count the deck (Q6).",
    WASTELAND: "Only when you hold no Item at all. The Item comes by DM and can be used from your "
    "next turn (Q13). With the Supply empty, nothing happens (Q5).",
    PALACE: "If your Emeralds equal the most (alone or tied), you take one from the Bank; "
    "otherwise you take one from each player holding the most.",
    TRAIL: "With at least two Unmarked Trails on the map: `end 2,1` takes you to another one "
    "(not back to where your turn began), or `end stay`. With only one on the map (a Trail "
    "dreamt at the Hill of Dreams does not count) nothing happens. No Bleina comes with you "
    "(Q10).",
}
"""What the bot adds to each kind of Frontier action (the action's own text is in data.py)."""

_ITEM_DETAILS: dict[str, str] = {
    "staff": "You choose which Bleina (`use Staff 2,1`); it may be on a Dark Forest. The Staff "
    "never carries a Bleina along (Q10). After it you may still ride the Bleina you find there, "
    "if you had not ridden one this turn (Q14).",
    "book": "You choose the Fragment (`use Book Moon`). With all eight, or none left in the "
    "Reliquary, `use Book` just spends it.",
    "eye": "`use Eye 0,3`. What the forest hides comes to you by DM (see `dark-forest`).",
    "wings": "`use Wings`, then walk one space at a time (`move N`); you may stop after one or two. "
    "You may trade and use Items between the spaces (Q15: a Bleina never adds to the Wings).",
    "water": "`use Water`. The extra turn starts after your Frontier Action.",
    "flute": "`use Flute 1,0` calls that Bleina to you; with none elsewhere, `use Flute` only makes "
    "this turn's ride free. The ride itself is still once per turn.",
}


def _slug(name: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in name.lower().replace("'", "")).split())


def _frontier_page(frontier: Frontier) -> HelpPage:
    roads = " ".join(frontier.roads)
    if frontier.key == "town":
        where = "the centre of the map (0,0), where everyone starts"
    elif frontier.start:
        where = f"a starting Frontier on {frontier.start.capitalize()}, otherwise in the Discovery Deck"
    else:
        where = "in the Discovery Deck"
    cards = [f for f in FRONTIERS if f.name == frontier.name]
    if len(cards) > 1:
        each = ", ".join(" ".join(f.roads) + (" (Dragon symbol)" if f.dragon else "") for f in cards)
        facts = [f"{len(cards)} cards, roads: {each}", f"Where: {where}"]
    else:
        facts = [f"Roads: {roads}", f"Where: {where}"]
        if frontier.dragon:
            facts.append("Dragon symbol: it brings a Dark Forest")
    if frontier.fragment:
        fragment = FRAGMENT_BY_KEY[frontier.fragment]
        facts.append(f"Fragment: {fragment.name} ({fragment.number})")
    text = "\n".join(
        [
            f"**Frontier Action:** {frontier.text}",
            "*" + " · ".join(facts) + "*",
            _DETAILS[frontier.action],
            "The action resolves when you end your turn here (`end`), and ends your turn.",
        ]
    )
    return HelpPage(frontier.name, text, FRONTIER_GROUP)


def build_pages() -> dict[str, HelpPage]:
    """Every Argoat rules page by topic, in overview order."""
    pages: dict[str, HelpPage] = {}

    def add(topic: str, title: str, group: str, text: str) -> None:
        pages[topic] = HelpPage(title, text, group)

    add(
        "turn",
        "Turn structure",
        BASICS,
        "1. **Free actions, any time in your turn** — trade with players on your Frontier (see "
        "`trading`) and use Items (see `items`), as often as you like, before, during or after "
        "your movement.\n"
        "2. **Move** — one space along a road (`move N`); a Bleina can take you further (see "
        "`bleina`). Moving is required (Q4): your turn must end on a different Frontier from the "
        "one it began on, unless no other ending is possible.\n"
        "3. **End** — resolve the Frontier Action of the card you stand on (`end`, with its "
        "choice, e.g. `end pay`). That ends your turn: no more trades or Items. Play passes to "
        "the next seat.\n"
        "In the bot: the turn message's buttons, or `/game play` / `/argoat move` with "
        "autocomplete. When you hold Items your choices are private: press **Show my choices**. "
        "`undo` takes back moves and trade parts back to the last thing others have seen.",
    )
    add(
        "movement",
        "Moving",
        BASICS,
        "A move follows a road from your Frontier to a neighbouring card (`move N`, `move E`…); "
        "Dark Forests are spaces too. Coordinates: the Frontier Town is `0,0`, x grows East, y "
        "grows North (`0,1` is north of the Town).\n"
        "• **Q4:** you must move every turn, and the turn must end elsewhere than where it began: "
        "the bot only lets you come back to your start if you can still leave it again, and "
        "offers no `end` there while a way out is open.\n"
        "• **Discovering:** ending your turn on the Frontier Town reveals a new Frontier (see "
        "`frontier-town`).\n"
        "• Special movement (Staff, Unmarked Trail, Fountain) moves only your Avatar (Q10).",
    )
    add(
        "bleina",
        "Bleina",
        BASICS,
        "The Bleina are mounts (one per two players, rounded down, starting on the Town). Once "
        "per turn, for one Emerald:\n"
        "• **before** you move, standing with a Bleina: ride exactly two spaces instead of one "
        "(`move bleina N E`);\n"
        "• **after** a move, standing with a Bleina: ride one extra space (`move bleina E`).\n"
        "The Bleina goes with you and stays where you end. A ride never ends where your turn "
        "began (Q4). The Flute of Cleansing makes this turn's ride free. No ride in a turn with "
        "the Wings of the Holy Dragon, before or after (Q15). The Labous Snowfields and the Flute "
        "move a Bleina to you; the Staff of Guidance takes you to one.",
    )
    add(
        "trading",
        "Trading",
        BASICS,
        "On your turn, any number of times, you may trade with a player on your Frontier (never "
        "with others, Q3). A trade combines, in either direction:\n"
        "• **Emeralds**, one at a time;\n"
        "• **sharing a Fragment** the other lacks — the receiver takes a copy from the "
        "Reliquary, the giver keeps his;\n"
        "• **letting the other explore** a face-down Dark Forest you have a Check Marker on (he "
        "looks secretly and places a marker);\n"
        "• **Items**, face down: you pick one to give, or ask for a number of the partner's "
        "Items and he picks which.\n"
        "Both must agree and an accepted trade cannot be undone. Nothing secret has to be "
        "revealed, and what you say need not be true; Items are never shown (Q2).\n"
        "In the bot: build it privately (`trade Blue`, `trade give emerald`, `trade ask fragment "
        "Moon`, … `trade propose`); the partner answers `accept` or `decline`, you may "
        "`withdraw`. The public message gives the terms with Item counts only; Items and peeks "
        "received come by DM. An offer left unanswered for `trade_wait` minutes (a table option, "
        f"default {DEFAULT_TRADE_WAIT}; 0: no limit) counts as declined.",
    )
    item_lines = "\n".join(f"• `{_slug(item.name)}` — {item.text}" for item in ITEMS)
    add(
        "items",
        "Items in general",
        BASICS,
        f"{ITEM_RULES}\nThe Supply holds {ITEM_COPIES} of each of the six Items. Using one is "
        f"public (`use Eye 0,3`); `/game hand` lists yours with what they do.\n{item_lines}",
    )
    fragment_lines = "\n".join(
        f"• {f.number}. {f.name} — "
        + " / ".join(fr.name for fr in FRONTIERS if fr.fragment == f.key)
        + (" (Journeyman start)" if any(fr.fragment == f.key and fr.start for fr in FRONTIERS) else "")
        for f in FRAGMENTS
    )
    add(
        "fragments",
        "Fragments of Ancient Knowledge",
        BASICS,
        f"Eight Fragments, {FRAGMENT_COPIES} copies each in the Reliquary. You never hold two of a "
        "kind. Where they come from:\n"
        f"{fragment_lines}\n"
        "Also: the Fountain of Desire (buy any for 2 Emeralds), the Book of Wisdom (in the Town), "
        "and trades (sharing keeps your own copy). A Fragment with no copy left cannot be had. "
        "Fragments and Emeralds are public.",
    )
    add(
        "winning",
        "Winning and the end",
        BASICS,
        "Be the first to end your move on the Dark Forest hiding **Eden** while holding all "
        "eight Fragments: it is flipped when you resolve `end` there (no payment, Q9) and you "
        "win at once. Knowing where Eden is does not win by itself, and a flipped Hollow stays "
        "face up. The others are ranked by Fragments, then Emeralds.\n"
        "A map where nobody can get on may stall; the host can then `/game abandon` the table.",
    )
    starts = "\n".join(
        f"• `{d}`{' (default)' if d == DEFAULT_DIFFICULTY else ''}: "
        + ", ".join(next(f.name for f in FRONTIERS if f.key == k) for k in starting_frontiers(d))
        for d in DIFFICULTIES
    )
    add(
        "setup",
        "Set-up and options",
        BASICS,
        "The Frontier Town lies in the centre with the four starting Frontiers of the chosen "
        "difficulty around it (drawn at random among the layouts whose roads connect); the other "
        "fifteen Frontiers form the Discovery Deck. Choose with "
        "`/game new game:Argoat options:difficulty=journeyman`:\n"
        f"{starts}\n"
        f"Journeyman hands out Fragments sooner, so games are quicker. Each player starts on the "
        f"Town with {START_EMERALDS} Emerald and {MARKERS_PER_PLAYER} Check Markers; the Bank "
        f"holds {BANK_SIZE} Emeralds in all, and an empty Bank gives nothing (Q5). The first "
        "player is drawn at random.",
    )

    for frontier in FRONTIERS:
        pages.setdefault(_slug(frontier.name), _frontier_page(frontier))

    for item in ITEMS:
        add(
            _slug(item.name),
            item.name,
            ITEM_GROUP,
            f"**Effect:** {item.text}\n**When:** {item.when[0].upper()}{item.when[1:]}\n"
            f"{_ITEM_DETAILS[item.key]}\nSee `items` for when Items may be used at all.",
        )

    hollows = DARK_FORESTS.count(HOLLOW)
    dragons = [f.name for f in FRONTIERS if f.dragon]
    add(
        "dark-forest",
        "Dark Forests: exploring",
        FORESTS,
        "Ending your move on a face-down Dark Forest you have no Check Marker on, you explore it "
        "as your Frontier Action: pay as many Emeralds as there are Check Markers on it already "
        "(the first explorer pays nothing, Q8), look at its other side secretly (the bot tells "
        "you by DM) and place a Check Marker. If you cannot pay, you lose all your Emeralds and "
        "see nothing. Where you already have a marker, nothing happens.\n"
        "You may also explore through a trade or with the Eye of the Dark Dragon. With all "
        "eight Fragments you pay nothing and **flip** the forest instead (Q9, see `winning`).\n"
        f"Each player has {MARKERS_PER_PLAYER} Check Markers, one per forest at most; `/game hand` "
        "lists what you have seen. A Dark Forest has one road, towards the Dragon Frontier that "
        "brought it.",
    )
    add(
        "hollow",
        "Hollow",
        FORESTS,
        f"The other side of {hollows} of the {len(DARK_FORESTS)} Dark Forests: nothing happens. A "
        "Hollow found by flipping (with all eight Fragments) stays face up for good; nobody can "
        "explore or trade it any more.",
    )
    add(
        "eden",
        "Eden",
        FORESTS,
        f"The other side of one of the {len(DARK_FORESTS)} Dark Forests. Flipping it — ending your "
        "move on it with all eight Fragments — wins the game at once. Finding it by exploring "
        "only tells you (secretly) where to go: that knowledge is yours to trade.",
    )
    add(
        "darkness-deck",
        "Darkness Deck",
        FORESTS,
        f"{len(DARK_FORESTS)} Dark Forests, shuffled face down: 1 Eden and {hollows} Hollows. None "
        "is on the map at the start. When the Frontier Town's action places a Frontier with the "
        f"Dragon symbol ({len(dragons)} of them: {', '.join(dragons)}), the top Dark Forest is "
        "drawn and you place it next to that Frontier, on a side where it has a road; its other "
        "sides are blank and must face blanks or empty cells. No room: none is drawn (Q7). The "
        "deck empty: none, and the rest of the Town's action stands. The bot shows only whether "
        "a deck is empty, never how many cards it holds (Q6).",
    )

    groups: dict[str, list[str]] = {}
    for topic, page in pages.items():
        groups.setdefault(page.group, []).append(f"`{topic}`")
    listing = "\n".join(f"**{group}:** " + ", ".join(topics) for group, topics in groups.items())
    overview = HelpPage(
        "Overview",
        f"Gather all eight Fragments of Ancient Knowledge, then end your move on the Dark Forest "
        f"where **{EDEN}** sleeps. Each turn: trade and use Items freely, move (required; a Bleina "
        "carries you further for an Emerald), then resolve your Frontier's action. Returning to "
        "the Frontier Town discovers new Frontiers; Dragon Frontiers bring Dark Forests, which "
        "you explore secretly. Items and peeks are secret (DM, `/game hand`); Fragments and "
        "Emeralds are public.\n"
        f"2–5 players. Pages (`/game rules game:Argoat topic:<page>`):\n{listing}",
        BASICS,
    )
    return {"overview": overview, **pages}


PAGES: dict[str, HelpPage] = build_pages()
"""Every Argoat rules page by topic; ``"overview"`` first."""
