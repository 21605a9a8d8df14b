fof(s1, axiom, ! [X] : (artist(X) => beekeeper(X))).
fof(s2, axiom, ! [X] : (~ artist(X) => beekeeper(X))).
fof(s3, axiom, ! [X] : (p(X) => ~ q(X))).
fof(s4, axiom, ? [X] : (~ p(X) & ~ q(X))).
fof(s5, axiom, ! [X] : ((~ o(X) & p(X)) => q(X))).
fof(s6, axiom, ! [X] : ((o(X) & ~ p(X)) => ~ q(X))).
fof(s7, axiom, ? [X] : (o(X) & ~ p(X) & q(X))).
fof(s8, axiom, ! [X] : (p(X) => ! [Y] : (q(Y) => r(X,Y)))).
fof(s9, axiom, ! [X] : (p(X) => ? [Y] : (~ q(Y) & r(X,Y)))).
fof(s10, axiom, ? [X] : (p(X) & ! [Y] : (q(Y) => r(X,Y)))).
fof(s11, axiom, ? [X] : (~ p(X) & ? [Y] : (q(Y) & r(X,Y)))).
fof(s12, axiom, ! [X] : (p(X) => ! [Y] : (q(Y) => ~ r(X,Y)))).
fof(s13, axiom, ! [X] : (p(X) => ? [Y] : (q(Y) & ~ r(X,Y)))).
fof(s14, axiom, ? [X] : (p(X) & ! [Y] : (q(Y) => ~ r(X,Y)))).
fof(s15, axiom, ? [X] : (p(X) & ? [Y] : (~ q(Y) & ~ r(X,Y)))).
fof(s16, axiom, ! [X] : ((o(X) & ? [Y] : (p(Y) & r(X,Y))) => q(X))).
fof(s17, axiom, ! [X] : ((o(X) & ! [Y] : (~ p(Y) => r(X,Y))) => q(X))).
fof(s18, axiom, ! [X] : ((~ o(X) & ! [Y] : (p(Y) => ~ r(X,Y))) => q(X))).
fof(s19, axiom, ! [X] : ((o(X) & ? [Y] : (p(Y) & ~ r(X,Y))) => q(X))).
fof(s20, axiom, ! [X] : ((o(X) & ? [Y] : (p(Y) & r(X,Y))) => ~ q(X))).
fof(s21, axiom, ? [X] : (o(X) & (! [Y] : (p(Y) => r(X,Y))) & ~ q(X))).
fof(s22, axiom, ! [X] : (o(X) => ! [Y] : ((p(Y) & s(Y,X)) => r(X,Y)))).
fof(s23, axiom, ! [X] : (o(X) => ? [Y] : (p(Y) & ~ s(Y,X) & r(X,Y)))).
fof(s24, axiom, ? [X] : (~ o(X) & ! [Y] : ((p(Y) & ~ s(Y,X)) => r(X,Y)))).
fof(s25, axiom, ? [X] : (o(X) & ? [Y] : (~ p(Y) & s(Y,X) & r(X,Y)))).
fof(s26, axiom, ! [X] : (o(X) => ! [Y] : ((p(Y) & s(Y,X)) => ~ r(X,Y)))).
fof(s27, axiom, ! [X] : (o(X) => ? [Y] : (p(Y) & ~ s(Y,X) & ~ r(X,Y)))).
fof(s28, axiom, ? [X] : (artist(X) & ! [Y] : ((beekeeper(Y) & admire(Y,X)) => ~ hate(X,Y)))).
fof(s29, axiom, ? [X] : (o(X) & ? [Y] : (p(Y) & ~ s(Y,X) & ~ r(X,Y)))).
fof(s30, axiom, ! [X] : (p(X) => (q(X) => o(X)))).
fof(s31, axiom, ! [X] : ((p(X) => q(X)) => o(X))).
fof(s32, axiom, ! [X] : ((p(X) => q(X)) & o(X))).
fof(s33, axiom, ! [X] : (o(X) | (p(X) => q(X)))).
fof(s34, axiom, ! [X] : ~ (p(X) => q(X))).
fof(s35, axiom, ! [X] : ~ (p(X) & q(X))).
fof(s36, axiom, ! [X] : ~ (p(X) | q(X))).
fof(s37, axiom, ! [X] : ~ ~ p(X)).
fof(s38, axiom, ~ ! [X] : p(X)).
fof(s39, axiom, ~ ? [X] : ~ p(X)).
fof(s40, axiom, ! [X] : ((p(X) | q(X)) & o(X))).
fof(s41, axiom, ! [X] : ((p(X) & q(X)) | (o(X) & ~ p(X)))).
fof(s42, axiom, ! [X] : ((p(X) | q(X)) => (o(X) & p(X)))).
fof(s43, axiom, ! [X] : (p(X) & (q(X) & o(X)))).
fof(s44, axiom, ! [X] : ((p(X) | q(X)) | o(X))).
fof(s45, axiom, (! [X] : p(X)) & (? [Y] : q(Y)) & ~ ! [X] : o(X)).
fof(s46, axiom, (? [X] : p(X)) => ! [Y] : q(Y)).
fof(s47, axiom, ! [X] : ! [Y] : ? [Z] : (r(X,Y) & r(Y,Z))).
fof(s48, axiom, ! [X] : (p(X) & ? [X] : ~ p(X))).
fof(s49, axiom, ! [X] : ! [Y] : ! [Z] : t(X,Y,Z)).
fof(s50, axiom, ? [X] : r(X,X)).
fof(s51, axiom, ! [X_1] : (p_2(X_1) => ? [YY] : admire_9(X_1,YY))).
fof(s52, axiom, ! [LET] : (and(LET) => ? [TRUE] : ite(LET,TRUE))).
