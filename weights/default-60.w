# weights/default-60.w: the 60 parameters alone, kingme's default weights until
# the new terms joined them (weights/default.w). Made by kingme's own tuner (kingme tune) in two sessions
# on the project machine (x86_64 Intel Xeon, 2 cores, games on 2 threads):
#  1. ga-d4: kingme tune --population 32 --duels 0 --depth 4 --selection 10
#     --mutation 0.1 --seconds 2400 --openings ballots --seed 20261122 -j 2
#     --include weights/default.w --include weights/material.w
#     (the first population: 30 random vectors, the hand-set vector, now
#     weights/handset.w, and weights/material.w); 424 generations, 421376 games,
#     2404 s of play (40 min wall).
#  2. ga-d6: kingme tune --continue weights/population/ga-d4.pop --depth 6
#     --seconds 1500 --seed 20261123 -j 2; 47 generations, 46712 games,
#     1508 s of play (25 min wall). This is its best so far (generation 46).
# Checked with kingme match at depth 6 over the 144 crossboard ballots, both
# colours (288 games, seed 1): 85.4% against material.w, 47.6% against
# handset.w (-17 Elo, 95% -47..+13: no significant difference). See
# docs/devlog.md.
#
# The tuner's own header follows.
#   made by kingme 0.1.0 tune, session ga-d6 (population file weights/population/ga-d6.pop), run started 2026-11-22 11:15:47
#   machine: x86_64, 2 cores online; games played on 2 threads
#   population 32, duels 0 (round robin), depth 6, selection 10, mutation 0.1, openings ballots, seed 20261123
#   stop after 1500 seconds; 47 generations done, 1508.4 s of play, 46712 games
#   best so far: from generation 46, score 91 of 124
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
