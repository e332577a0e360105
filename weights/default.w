# kingme default weights (provisional: material only, until a hand-set vector lands)
own_men 1000
own_kings 1300
opp_men -1000
opp_kings -1300
