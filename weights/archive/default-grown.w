# weights/archive/default-grown.w: kingme's default weights from 188ee22 to
# c1a23b2 (2026-11-22 and 23, until the fitted vector of ffe3bdf replaced it),
# kept unchanged below its old header to reproduce old measurements.
# Its header then:
# Grown from random vectors only by kingme's own genetic algorithm: the vector
# of weights/archive/grown.w (session learn-s2: kingme tune --seconds 1800 -j 2 --seed 2
# --name learn-s2, the learn algorithm with its default controls, 862
# generations, 458656 games; `kingme tune --generations 862 --seed 2` makes
# the same vector on any machine), multiplied by 1000/6516 and rounded so that
# a man is 1000, the scale the search's margins (futility, ProbCut,
# aspiration) are set in; the evaluation orders positions as before (the
# rounding aside). Only the scale was chosen by hand.
# Measured (docs/devlog.md, "Tuning" and "How the shipped weights play"): at depth 6
# over the 144 ballots, both colours (288 games): 92.7% against material.w,
# 65.3% against handset.w, 68.9% against default-60.w (the default before),
# 62.0% against terms-flat.w; between engine processes at 0.05 s a move (400 games over the ballots with both colours):
# 65.1% against default-60.w, +108.5 Elo (95% +85.6 .. +132.3).
# The 60-parameter default before it is weights/default-60.w; the previous
# default with six hand-set pairs of the new terms is weights/archive/terms-flat.w.
own_men                     1000
own_kings                   1273
opp_men                    -1000
opp_kings                  -1273
own_men_edge                 -10
own_kings_edge              -108
opp_men_edge                  10
opp_kings_edge               108
own_movable_men              -14
own_movable_kings            518
opp_movable_men               14
opp_movable_kings           -518
own_moves                     16
opp_moves                    -16
own_can_capture               95
own_captures                 207
own_longest_capture           29
opp_can_capture              -95
opp_captures                -207
opp_longest_capture          -29
own_promotion_distance        36
opp_promotion_distance       -36
own_promotion_row_empty      117
opp_promotion_row_empty     -117
own_men_low                   67
own_kings_low               -136
opp_men_low                  -67
opp_kings_low                136
own_men_middle                23
own_kings_middle             -26
opp_men_middle               -23
opp_kings_middle              26
own_men_high                  91
own_kings_high               -83
opp_men_high                 -91
opp_kings_high                83
own_lone_men                 -35
own_lone_kings               -80
opp_lone_men                  35
opp_lone_kings                80
own_man_in_corner           -149
own_king_in_corner            52
own_both_corners             -26
opp_man_in_corner            149
opp_king_in_corner           -52
opp_both_corners              26
own_triangle                 146
own_oreo                     130
own_bridge                   182
own_dog                     -202
opp_triangle                -146
opp_oreo                    -130
opp_bridge                  -182
opp_dog                      202
own_blockers                 -68
own_block_lines              -57
own_longest_block_line        23
opp_blockers                  68
opp_block_lines               57
opp_longest_block_line       -23
