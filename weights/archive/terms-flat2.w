# weights/archive/terms-flat2.w: terms-flat.w with two pairs raised by hand,
# in the direction the GA's children of a 74-weight session moved them
# (621f000, 2026-11-22; docs/devlog.md, "Evaluation terms beyond the 60"): back-rank men 20 -> 60,
# trade lead 25 -> 100 (opp_ weights the negatives); nothing else changed.
# Not a GA vector: the session's best stayed terms-flat.w itself, and its
# best children lost to it (-77 and -70 Elo at depth 6).
# Screened: kingme match weights/terms-flat2.w weights/terms-flat.w --depth 6 -j 2
#   (seed 1) +26.6 Elo (-4.5 .. +58.1), 288 games; with --seed 2 -j 1 +42.4
#   (+12.3 .. +73.3), 288 games. Trade lead 200 instead: +3.6, 288 games.
# Between engine processes, against the 60 alone (weights/default-60.w),
# build 077e8fa, 400 games, load average 7-12:
#   kingme match engine:"./kingme engine --weights weights/terms-flat2.w"
#     engine:"./kingme engine --weights weights/default-60.w" --time 0.05 --games 400 -j 1
#   156 wins, 200 draws, 44 losses: +100.0 Elo (+76.4 .. +124.5).
# Against terms-flat.w (the built-in default at 3042373), that build, 200 games:
#   kingme match engine:"./kingme engine --weights weights/terms-flat2.w"
#     engine:"./kingme engine --weights weights/terms-flat.w" --time 0.05 --games 200 -j 1
#   64 wins, 107 draws, 29 losses: +61.4 Elo (+29.1 .. +94.8).
own_men                   1000
own_kings                 1300
opp_men                  -1000
opp_kings                -1300
own_men_edge               -10
own_kings_edge             -40
opp_men_edge                10
opp_kings_edge              40
own_movable_men             10
own_movable_kings           20
opp_movable_men              0
opp_movable_kings            0
own_moves                    0
opp_moves                    0
own_can_capture              0
own_captures                 0
own_longest_capture          0
opp_can_capture            -50
opp_captures                 0
opp_longest_capture       -621
own_promotion_distance      -5
opp_promotion_distance       5
own_promotion_row_empty     15
opp_promotion_row_empty    -15
own_men_low                  0
own_kings_low             -332
opp_men_low                  0
opp_kings_low                0
own_men_middle              10
own_kings_middle            30
opp_men_middle             -10
opp_kings_middle           -30
own_men_high                20
own_kings_high               0
opp_men_high               -20
opp_kings_high               0
own_lone_men                -5
own_lone_kings               5
opp_lone_men                 5
opp_lone_kings               0
own_man_in_corner            0
own_king_in_corner         -40
own_both_corners             0
opp_man_in_corner            0
opp_king_in_corner          40
opp_both_corners             0
own_triangle                30
own_oreo                    30
own_bridge                  50
own_dog                    -40
opp_triangle               -30
opp_oreo                   -30
opp_bridge                 -50
opp_dog                     40
own_blockers                 5
own_block_lines              0
own_longest_block_line       0
opp_blockers                 0
opp_block_lines              0
opp_longest_block_line       0
own_runaway_men            120
opp_runaway_men           -120
own_back_men                 60
opp_back_men                -60
own_kings_centre            60
opp_kings_centre           -60
own_sole_kings             100
opp_sole_kings            -100
own_trade_lead              100
opp_trade_lead             -100
