//! The protocol's `hint` through the real binary: the next human step of a grid, with or
//! without candidates, and one `error` line (state kept) for bad input.

use crate::common;

use common::Engine;

#[test]
fn hint_answers_the_next_step_and_leaves_the_game_alone() {
    let mut engine = Engine::start();
    assert!(engine.ask("newgame sudoku box 2x2").is_empty());
    assert!(engine.ask("position board .2../.41./2143/432.").is_empty());
    let legal_before = engine.ask("legal");
    assert_eq!(
        engine.ask("hint .2../.41./2143/432."),
        vec![
            "hint full-house place r4c4=1 eliminate - cells r4c4 text Full House: r4c4=1 \
             (last empty cell of row 4)"
        ]
    );
    let pair = "...1.8..6471...........3...............5.....5.3876.....5.3.96..39....5486.4..13.";
    let answer = engine.ask(&format!("hint {pair}"));
    assert!(
        answer[0].starts_with("hint naked-single place r"),
        "{answer:?}"
    );
    let six = engine.ask("hint box 2x3 ......64..1.....35......36.4..5....2");
    assert!(
        six[0].starts_with("hint ") && six[0].contains(" text "),
        "{six:?}"
    );
    assert_eq!(engine.ask("hint 1234/3412/2143/4321"), vec!["hint solved"]);
    for bad in [
        "hint",
        "hint ....",
        "hint 22../.41./2143/432.",
        "hint ..../..../..../....",
        "hint .2../.41./2143/432. candidates 1,2",
        "hint .2../.41./2143/432. candidates 23,.,3,4,3,.,.,2,.,.,.,.,.,.,.,1",
        "hint box 7x7 ....",
    ] {
        let error = engine.expect_error(bad);
        assert!(!error.contains('\n'), "{error}");
    }
    assert_eq!(engine.ask("legal"), legal_before);
}
