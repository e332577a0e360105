# weights/default.w: kingme's default weights (compiled into the program).
# The 60 parameters, four of the seven pairs 61-74 (back-rank men, men and
# kings in the centre, trade lead) and a game phase (an opening and an ending
# vector, the end. lines), fitted by tools/fit_eval (ffe3bdf and ca8c8da,
# 2026-11-23) to the search's own scores, starting from the default before
# (weights/archive/default-grown.w, the GA's vector grown from random
# vectors). The runaway men (61, 62), kings in the double corners (69, 70)
# and sole kings (71, 72) are 0: refits without them played as well
# (docs/devlog.md, "Evaluation terms beyond the 60"):
#   tools/fit_eval --terms 74 --phase --lambda 0.0001 --men 1000 \
#     --label-depth 8 --every 15 --drop own_runaway_men \
#     --drop own_kings_double_corner --drop own_sole_kings \
#     -w weights/archive/default-grown.w -o default.w GAMES...
# GAMES: the 23759 finished games of kingme's engine matches of 2026-11-22
# and 2026-11-23 (85 PDN files, not shipped); every 15th quiet position from ply 10
# (188356), each labelled by the depth-8 search of default-grown.w, the
# weights fitted by logistic regression to those scores, then scaled so that
# a man is 1000.
# Against the 60-parameter weights/default-60.w, engine processes, --no-egdb
# on both, the 144 ballots with both colours, 0.05 s a move, 400 games:
# +125.0 Elo (95% +101.5 .. +149.6): +170 =198 -32 (c54196b, 2026-11-23;
# docs/devlog.md).
own_men                   1000
own_kings                 1838
opp_men                  -1000
opp_kings                -1838
own_men_edge               -22
own_kings_edge             -87
opp_men_edge                22
opp_kings_edge              87
own_movable_men            -46
own_movable_kings          380
opp_movable_men             46
opp_movable_kings         -380
own_moves                   26
opp_moves                  -26
own_can_capture            156
own_captures               273
own_longest_capture         77
opp_can_capture           -156
opp_captures              -273
opp_longest_capture        -77
own_promotion_distance      69
opp_promotion_distance     -69
own_promotion_row_empty    144
opp_promotion_row_empty   -144
own_men_low                118
own_kings_low             -140
opp_men_low               -118
opp_kings_low              140
own_men_middle             -36
own_kings_middle           -82
opp_men_middle              36
opp_kings_middle            82
own_men_high               -29
own_kings_high            -244
opp_men_high                29
opp_kings_high             244
own_lone_men               -43
own_lone_kings            -139
opp_lone_men                43
opp_lone_kings             139
own_man_in_corner         -313
own_king_in_corner         -79
own_both_corners             8
opp_man_in_corner          313
opp_king_in_corner          79
opp_both_corners            -8
own_triangle                82
own_oreo                    85
own_bridge                 -18
own_dog                   -272
opp_triangle               -82
opp_oreo                   -85
opp_bridge                  18
opp_dog                    272
own_blockers               -64
own_block_lines            -80
own_longest_block_line      13
opp_blockers                64
opp_block_lines             80
opp_longest_block_line     -13
own_runaway_men              0
opp_runaway_men              0
own_back_men                77
opp_back_men               -77
own_men_centre              34
opp_men_centre             -34
own_kings_centre           -24
opp_kings_centre            24
own_kings_double_corner      0
opp_kings_double_corner      0
own_sole_kings               0
opp_sole_kings               0
own_trade_lead              28
opp_trade_lead             -28
end.own_men                   1692
end.own_kings                 1597
end.opp_men                  -1692
end.opp_kings                -1597
end.own_men_edge              -101
end.own_kings_edge             -38
end.opp_men_edge               101
end.opp_kings_edge              38
end.own_movable_men             13
end.own_movable_kings          -21
end.opp_movable_men            -13
end.opp_movable_kings           21
end.own_moves                   17
end.opp_moves                  -17
end.own_can_capture            -72
end.own_captures               335
end.own_longest_capture        -79
end.opp_can_capture             72
end.opp_captures              -335
end.opp_longest_capture         79
end.own_promotion_distance    -233
end.opp_promotion_distance     233
end.own_promotion_row_empty     52
end.opp_promotion_row_empty    -52
end.own_men_low                430
end.own_kings_low               -9
end.opp_men_low               -430
end.opp_kings_low                9
end.own_men_middle            -191
end.own_kings_middle           -37
end.opp_men_middle             191
end.opp_kings_middle            37
end.own_men_high              -250
end.own_kings_high             -88
end.opp_men_high               250
end.opp_kings_high              88
end.own_lone_men               -41
end.own_lone_kings             -85
end.opp_lone_men                41
end.opp_lone_kings              85
end.own_man_in_corner         -227
end.own_king_in_corner        -194
end.own_both_corners            44
end.opp_man_in_corner          227
end.opp_king_in_corner         194
end.opp_both_corners           -44
end.own_triangle               317
end.own_oreo                   192
end.own_bridge                 487
end.own_dog                   -718
end.opp_triangle              -317
end.opp_oreo                  -192
end.opp_bridge                -487
end.opp_dog                    718
end.own_blockers               -41
end.own_block_lines           -101
end.own_longest_block_line       5
end.opp_blockers                41
end.opp_block_lines            101
end.opp_longest_block_line      -5
end.own_runaway_men              0
end.opp_runaway_men              0
end.own_back_men               466
end.opp_back_men              -466
end.own_men_centre             -54
end.opp_men_centre              54
end.own_kings_centre           105
end.opp_kings_centre          -105
end.own_kings_double_corner      0
end.opp_kings_double_corner      0
end.own_sole_kings               0
end.opp_sole_kings               0
end.own_trade_lead              72
end.opp_trade_lead             -72
