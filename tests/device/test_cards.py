"""Cards as small ints and their notation (issue: packed cards)."""

from engine import cards


def test_face_layout():
    assert cards.face(cards.SUIT_S, cards.RA) == 7
    assert cards.face(cards.SUIT_C, cards.R7) == 24
    for f in range(32):
        assert cards.face(cards.suit_of(f), cards.rank_of(f)) == f


def test_notation_round_trip():
    text = "AS TS KS QS JS 9S"
    faces = cards.parse_many(text)
    assert faces == [7, 6, 5, 4, 3, 2]
    assert cards.format_faces(faces) == text
    for f in range(32):
        assert cards.parse(cards.name(f)) == f


def test_ten_written_10():
    assert cards.parse("10S") == cards.parse("TS") == 6
    assert cards.parse("10h") == cards.face(cards.SUIT_H, cards.RT)
    assert cards.parse_many("10S, qd") == [6, cards.face(cards.SUIT_D, cards.RQ)]


def test_bad_cards_rejected():
    for bad in ("", "1S", "AX", "ZS", "10", "AAS", "11S"):
        try:
            cards.parse(bad)
        except ValueError:
            pass
        else:
            raise AssertionError("accepted %r" % bad)


def test_card_points_sum_to_240():
    assert cards.card_points(cards.new_pack(False)) == 240
    assert cards.card_points(cards.new_pack(True)) == 240
    assert [cards.points(cards.parse(t)) for t in ("AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S")] == \
        [11, 10, 4, 3, 2, 0, 0, 0]


def test_pack_sizes():
    assert cards.count(cards.new_pack(False)) == 48
    assert cards.count(cards.new_pack(True)) == 64


def test_counts_and_display_order():
    counts = cards.counts_of(cards.parse_many("9H AS KD AS TH"))
    assert counts[7] == 2
    assert cards.format_counts(counts) == "AS AS TH 9H KD"
    assert cards.format_counts(counts, cards.SUIT_D) == "KD AS AS TH 9H"
    try:
        cards.counts_of(cards.parse_many("AS AS AS"))
    except ValueError:
        pass
    else:
        raise AssertionError("three copies accepted")
