from take5rules import CautiousPlayer, LowestCardPlayer, play_game
from take5rules.logs.seat_view import seat_view
from take5rules.logs.writer import log_from_events

log = log_from_events(play_game({"ana": CautiousPlayer(), "bob": LowestCardPlayer()}, seed=5))
view = seat_view(log, "ana")  # a new dict, ready for json.dump; the log is left as it was
print((view["format"], view["seat"]))  # ('take5-seat-view', 'ana')
print(list(log["rounds"][0]["hands"]))  # ['ana', 'bob']
print(list(view["rounds"][0]["hands"]))  # ['ana']
print(view["rounds"][0]["turns"] == log["rounds"][0]["turns"])  # True
