"""Questions written on the whole standard deck, the way they come to mind (run with --deck standard)."""

from drawdsl import draw, draw_count, draw_until, generate

first_king = draw_until(lambda card: card.rank == 13).map(len)
hearts_in_13 = draw_count(lambda card: card.suit == "H", 13)


@generate
def aces_in_five():
    count = 0
    for _ in range(5):
        card = yield draw()
        count += card.rank == 14
    return count
