# weights/archive/fit74.w: the default of ffe3bdf (2026-11-23, weights/default.w
# then), kept to reproduce its measurements; the default since ca8c8da is the
# same fit without three pairs (docs/devlog.md, "Evaluation terms beyond the 60").
# The 60 parameters, the 14 terms 61-74 and a game phase (an opening and an
# ending vector, the end. lines), fitted by tools/fit_eval (ffe3bdf, 2026-11-23)
# to the search's own scores, starting from the default before
# (weights/archive/default-grown.w, the GA's vector grown from random vectors):
#   tools/fit_eval --terms 74 --phase --lambda 0.0001 --men 1000 \
#     --label-depth 8 --every 15 -w weights/default-grown.w -o default.w GAMES...
# GAMES: the 23759 finished games of kingme's engine matches of 2026-11-22
# and 2026-11-23 (85 PDN files, not shipped); every 15th quiet position from ply 10
# (188356), each labelled by the depth-8 search of default-grown.w, the
# weights fitted by logistic regression to those scores, then scaled so that
# a man is 1000 (docs/devlog.md, "Evaluation terms beyond the 60").
# Measured between engine processes, --no-egdb on both, the 144 ballots with
# both colours, 400 games, quiet machine: against default-grown.w +75.9 Elo
# (95% +53.6 .. +98.8) at 0.02 s a move and +28.7 (+7.5 .. +50.2) at 0.05 s;
# against the same fit without the phase +32.2 (+10.6 .. +54.1) and against
# the same fit of the 60 alone with a phase +38.4 (+15.7 .. +61.4), 0.02 s.
own_men                   1000
own_kings                 1888
opp_men                  -1000
opp_kings                -1888
own_men_edge               -12
own_kings_edge             -46
opp_men_edge                12
opp_kings_edge              46
own_movable_men            -43
own_movable_kings          408
opp_movable_men             43
opp_movable_kings         -408
own_moves                   24
opp_moves                  -24
own_can_capture            152
own_captures               268
own_longest_capture         73
opp_can_capture           -152
opp_captures              -268
opp_longest_capture        -73
own_promotion_distance      83
opp_promotion_distance     -83
own_promotion_row_empty    128
opp_promotion_row_empty   -128
own_men_low                 91
own_kings_low             -134
opp_men_low                -91
opp_kings_low              134
own_men_middle             -20
own_kings_middle           -78
opp_men_middle              20
opp_kings_middle            78
own_men_high                -5
own_kings_high            -215
opp_men_high                 5
opp_kings_high             215
own_lone_men               -46
own_lone_kings            -128
opp_lone_men                46
opp_lone_kings             128
own_man_in_corner         -298
own_king_in_corner        -148
own_both_corners           -10
opp_man_in_corner          298
opp_king_in_corner         148
opp_both_corners            10
own_triangle                99
own_oreo                   102
own_bridge                   1
own_dog                   -232
opp_triangle               -99
opp_oreo                  -102
opp_bridge                  -1
opp_dog                    232
own_blockers               -67
own_block_lines            -76
own_longest_block_line      15
opp_blockers                67
opp_block_lines             76
opp_longest_block_line     -15
own_runaway_men            311
opp_runaway_men           -311
own_back_men                62
opp_back_men               -62
own_men_centre              39
opp_men_centre             -39
own_kings_centre           -28
opp_kings_centre            28
own_kings_double_corner   -176
opp_kings_double_corner    176
own_sole_kings              51
opp_sole_kings             -51
own_trade_lead              19
opp_trade_lead             -19
end.own_men                   1658
end.own_kings                 1667
end.opp_men                  -1658
end.opp_kings                -1667
end.own_men_edge               -98
end.own_kings_edge             -42
end.opp_men_edge                98
end.opp_kings_edge              42
end.own_movable_men              2
end.own_movable_kings          -15
end.opp_movable_men             -2
end.opp_movable_kings           15
end.own_moves                   17
end.opp_moves                  -17
end.own_can_capture            -76
end.own_captures               343
end.own_longest_capture        -82
end.opp_can_capture             76
end.opp_captures              -343
end.opp_longest_capture         82
end.own_promotion_distance    -217
end.opp_promotion_distance     217
end.own_promotion_row_empty     50
end.opp_promotion_row_empty    -50
end.own_men_low                413
end.own_kings_low              -15
end.opp_men_low               -413
end.opp_kings_low               15
end.own_men_middle            -171
end.own_kings_middle           -37
end.opp_men_middle             171
end.opp_kings_middle            37
end.own_men_high              -217
end.own_kings_high             -88
end.opp_men_high               217
end.opp_kings_high              88
end.own_lone_men               -37
end.own_lone_kings             -76
end.opp_lone_men                37
end.opp_lone_kings              76
end.own_man_in_corner         -224
end.own_king_in_corner        -197
end.own_both_corners            42
end.opp_man_in_corner          224
end.opp_king_in_corner         197
end.opp_both_corners           -42
end.own_triangle               321
end.own_oreo                   186
end.own_bridge                 459
end.own_dog                   -704
end.opp_triangle              -321
end.opp_oreo                  -186
end.opp_bridge                -459
end.opp_dog                    704
end.own_blockers               -31
end.own_block_lines            -92
end.own_longest_block_line       6
end.opp_blockers                31
end.opp_block_lines             92
end.opp_longest_block_line      -6
end.own_runaway_men             40
end.opp_runaway_men            -40
end.own_back_men               449
end.opp_back_men              -449
end.own_men_centre             -37
end.opp_men_centre              37
end.own_kings_centre           106
end.opp_kings_centre          -106
end.own_kings_double_corner     12
end.opp_kings_double_corner    -12
end.own_sole_kings               2
end.opp_sole_kings              -2
end.own_trade_lead              70
end.opp_trade_lead             -70
