# header

own_men 1000 # men
opp_men	-1000
