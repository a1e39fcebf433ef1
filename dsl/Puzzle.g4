// The pzc puzzle language (.pz files). See docs/language.md.
//
// One grammar serves both front ends: the .pz reader starts at `file`; the
// YAML reader parses its structured string fields with the `*Only` entry
// rules (cycles, move expressions, generator lists, position sets), so both
// syntaxes accept exactly the same notation.
//
// Keywords are reserved only where they matter: the `name` rule accepts every
// keyword, so a position or move may be called `in` or `map`.
grammar Puzzle;

// ---------------------------------------------------------------- entry points

file : (permutationPuzzle | gridPuzzle | blocksPuzzle) EOF ;

expressionOnly   : expr? EOF ;
cyclesOnly       : cycle* EOF ;
generatorsOnly   : (expr (',' expr)*)? EOF ;
positionSetOnly  : position* EOF ;

// ---------------------------------------------------------------- permutation puzzles

permutationPuzzle : 'puzzle' name '{' item* '}' ;

item
    : orbitDecl
    | solvedDecl
    | ignoredOrientDecl
    | illegalDecl
    | powersDecl
    | moveDecl
    | symmetryDecl
    | subgroupDecl
    | patternDecl
    | solverDecl
    | layoutDecl
    ;

// orbit corners 8 orient 3 { UFR UFL ... }
// orbit edges 12 orient 2 ignored: moves give twists, the states forget them.
orbitDecl : 'orbit' name size=INT ('orient' modulus=INT ignored='ignored'?)? ('{' name* '}')? ';'? ;

// solved tiles { a a b b ... }: equal labels make pieces indistinguishable.
solvedDecl : 'solved' name '{' label* '}' ';'? ;
label      : INT | name ;

// orient centres ignored { L F R B }; these pieces' orientation does not
// matter (the orbit is read as stickers, note [ignored pieces]).
ignoredOrientDecl : 'orient' name 'ignored' positionSet ';'? ;

// illegal slice 3 holds 17; (ksolve's Illegal): no state with a piece
// labelled 17 at position 3 of slice is ever entered.
illegalDecl : 'illegal' name position 'holds' label ';' ;

// powers { 1: ""; 2: "2"; -1: "'"; }
powersDecl : 'powers' '{' powerName* '}' ';'? ;
powerName  : signedInt ':' STRING 'uncounted'? ';' ;

// move R = corners (UFR+1 UBR+2 DBR+1 DFR+2) edges (UR BR DR FR);
// move X = R U R';                       (an expression over earlier moves)
// macro sune = R U R' U R U2 R';
moveDecl : kind=('move' | 'macro') name '=' body ';' ;

// symmetry S_LR2 mirror = corners (...) edges (...);
symmetryDecl : 'symmetry' name 'mirror'? '=' body ';' ;

// A body that starts with `name (` is read as cycles; write an expression
// that starts with a parenthesised group as `(A) (B)` or `A B`.
body : orbitCycles+ | expr ;

orbitCycles  : name cycle+ ;
cycle        : '(' cycleElement+ ')' ;
cycleElement : position (sign=('+' | '-') twist=INT)? ;
position     : INT | name ;

// subgroup G1 = <U, D, R2>;   subgroup H { corners in {..} {..}; corners oriented; }
subgroupDecl : 'subgroup' name ('=' generators)? ('{' invariant* '}' | ';') ;
generators   : '<' (expr (',' expr)*)? '>' ;
invariant
    : name 'in' positionSet+ ';'                # keepInSets
    | name 'oriented' positionSet? ';'          # oriented
    ;
positionSet  : '{' position* '}' ;

// pattern corners_all { corners: positions orientations; edges {UF UR}: positions unordered; }
// pattern h48 { coset H48; }   (the coset coordinate of a subgroup, note [coset patterns])
// pattern h48h6 { coset H11 exact 11; edges {UR UF UL UB DR DF}: orientations; }
patternDecl  : 'pattern' name '{' patternCoset? patternPart* '}' ;
patternCoset : 'coset' name ('exact' exact=INT)? ';' ;
patternPart  : name positionSet? ':' aspect+ ';' ;
aspect       : 'positions' | 'orientations' | 'unordered' ;

// solver opt { optimal corners_all, edges_a; }   solver two { phased G1; }   solver quick { sift; }
solverDecl   : 'solver' name '{' solverBody '}' ;
solverBody
    : 'optimal' (name (',' name)*)? ';'   # optimalSolver
    | 'phased' (name (',' name)*)? ';'    # phasedSolver
    | 'sift' ';'                          # siftSolver
    ;

// layout { face U white; corners UFR 0 at 5 2 U; edges UF 1 polygon 0 0 1 0 0.5 0.8 F; fixed at 4 1 U; }
// Where each sticker is drawn (pzc draw; docs/language.md, Layouts): presentation only.
layoutDecl  : 'layout' '{' layoutItem* '}' ;
layoutItem
    : 'face' name colour=(IDENT | STRING) ';'                        # faceItem
    | 'fixed' layoutPlace face=name ';'                              # fixedItem
    | name position slot=INT layoutPlace face=name ';'               # stickerItem
    ;
layoutPlace
    : 'at' col=INT row=INT                                           # cellPlace
    | 'polygon' coordinate+                                          # polygonPlace
    ;
coordinate  : INT | DECIMAL ;

// ---------------------------------------------------------------- grid-actor puzzles

// grid anima { direction up (0, 1); colour red R r with; levels { "a.txt" } }
gridPuzzle : 'grid' name '{' gridItem* '}' ;

gridItem
    : 'direction' name '(' dx=signedInt ',' dy=signedInt ')' ';'          # directionDecl
    | 'colour' name actor=name goal=name motion ';'                        # colourDecl
    | 'levels' '{' STRING* '}' ';'?                                        # levelsDecl
    ;
motion
    : 'with'                                   # withMotion
    | 'against'                                # againstMotion
    | 'map' '{' (name '->' name ';')* '}'      # mapMotion
    ;

// ---------------------------------------------------------------- sliding-block puzzles

// blocks fifteen { board { ". 1 2 3" ... } moves blank; solver md { manhattan conflicts; } }
// (docs/language.md, "Sliding-block puzzles"). Values such as the metric,
// the axis or a symmetry's map are names, checked by lowering.
blocksPuzzle : 'blocks' name '{' blocksItem* '}' ;

blocksItem
    : 'board' '{' STRING* '}' ';'?                              # boardDecl
    | 'size' width=INT by=name height=INT ';'                    # sizeDecl
    | 'exit' side=name offset=INT ';'                            # exitDecl
    | 'metric' name ';'                                          # metricDecl
    | 'moves' name ';'                                           # movesDecl
    | 'axis' piece=label? axisName=name ';'                      # axisDecl
    | 'start' ';'                                                # startDecl
    | 'identical' label+ ';'                                     # identicalDecl
    | 'goal' blocksGoal ';'                                      # goalDecl
    | 'symmetry' name mapping=name ';'                           # blocksSymmetryDecl
    | 'pattern' name '{' label* ';'? '}'                         # blocksPatternDecl
    | 'solver' name '{' blocksSolverItem* '}'                    # blocksSolverDecl
    | 'levels' '{' STRING* '}' ';'?                              # blocksLevelsDecl
    ;
blocksGoal
    : 'board'                                                    # boardGoal
    | label 'exits'                                              # exitGoal
    | placement (',' placement)*                                 # placeGoal
    ;
placement : label 'at' x=INT y=INT ;
blocksSolverItem
    : 'bfs' ';'                                                  # bfsItem
    | 'manhattan' withConflicts='conflicts'? ';'                   # manhattanItem
    | 'additive' (name (',' name)*)? ';'                         # additiveItem
    | 'reflect' name ';'                                         # reflectItem
    ;

// ---------------------------------------------------------------- move expressions

// A word: R U R' U2 (R U)^3 [R, U] [F: R U] R'^-1
expr    : postfix+ ;
postfix : atom suffix* ;
suffix  : PRIME                # inverseSuffix
        | '^' signedInt        # powerSuffix
        ;
atom
    : name                           # refAtom
    | '(' expr? ')'                  # groupAtom
    | '[' expr ',' expr ']'          # commutatorAtom
    | '[' expr ':' expr ']'          # conjugateAtom
    ;

signedInt : '-'? INT ;

name
    : IDENT
    | 'puzzle' | 'orbit' | 'orient' | 'solved' | 'powers' | 'uncounted' | 'move' | 'macro'
    | 'symmetry' | 'mirror' | 'subgroup' | 'in' | 'oriented' | 'pattern' | 'positions'
    | 'orientations' | 'unordered' | 'solver' | 'optimal' | 'phased' | 'grid' | 'direction'
    | 'colour' | 'levels' | 'with' | 'against' | 'map' | 'coset' | 'exact' | 'illegal' | 'holds' | 'sift'
    | 'ignored' | 'blocks' | 'board' | 'size' | 'exit' | 'metric' | 'moves' | 'axis' | 'start'
    | 'identical' | 'goal' | 'exits' | 'at' | 'bfs' | 'manhattan' | 'conflicts' | 'additive' | 'reflect'
    | 'layout' | 'face' | 'fixed' | 'polygon'
    ;

// ---------------------------------------------------------------- tokens

PRIME         : '\'' ;
INT           : [0-9]+ ;
DECIMAL       : [0-9]+ '.' [0-9]+ ;
IDENT         : [A-Za-z_] [A-Za-z0-9_]* ;
STRING        : '"' (~["\\\r\n] | '\\' ["\\])* '"' ;
LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
WS            : [ \t\r\n]+ -> skip ;
// Any other character becomes one token so the parser reports it in place.
UNKNOWN_CHAR  : . ;
