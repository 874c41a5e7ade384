//! The screen of `pegsol play` driven key by key on ratatui's test backend.

use super::app::App;
use crate::analysis::solvable::{Finish, SolveOptions, hint, hint_text};
use crate::geometry::board::{Board, Pegs};
use crate::play::{Counted, Counter, Game};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

/// A game of `spec` from its default start, its counts finished.
fn app(spec: &str, finish: Option<&str>) -> App {
    let board = Board::from_spec(spec).unwrap();
    let finish = Finish::parse(&board, finish).unwrap();
    let start = board.default_start();
    let counter = Counter::start(&board, start, finish, SolveOptions::default(), true);
    counter.wait();
    App::new(Game::new(board, None), counter, finish)
}

/// The screen as text, one line per row, trailing blanks dropped.
fn screen(app: &mut App) -> String {
    let mut t = Terminal::new(TestBackend::new(100, 40)).unwrap();
    t.draw(|f| app.draw(f)).unwrap();
    let buf = t.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            let row: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
            row.trim_end().to_string() + "\n"
        })
        .collect()
}

fn press(app: &mut App, code: KeyCode) {
    app.key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn ctrl(app: &mut App, c: char) {
    app.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
}

fn type_jump(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
    press(app, KeyCode::Enter);
}

/// A left click on hole `h` as the screen last drew it.
fn click(app: &mut App, h: usize) {
    let (line, col) = app.layout.place(h);
    app.mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: app.board_area.x + col as u16 + 1,
        row: app.board_area.y + line as u16,
        modifiers: KeyModifiers::NONE,
    });
}

/// Every count the screen should show for `pos`, as `pegsol hint` prints it (computed
/// again from the position, without the game's cache): the wins, then one line per jump.
fn hint_lines(board: &Board, pos: Pegs, finish: Finish) -> (u128, Vec<String>) {
    let h = hint(board, pos, finish, &SolveOptions::default()).unwrap();
    let text = hint_text(board, pos, finish, &h);
    let jumps = text
        .lines()
        .filter(|l| l.starts_with("  ") && l.contains("(over "))
        .map(str::to_string)
        .collect();
    (h.wins, jumps)
}

fn check_counts(app: &mut App, finish: Finish, ending: &str) {
    let (wins, jumps) = hint_lines(app.game.board(), app.game.position(), finish);
    let s = screen(app);
    let want = format!(
        "wins{ending} still possible: {}",
        thousands::Separable::separate_with_commas(&wins)
    );
    assert!(s.contains(&want), "{want} not on\n{s}");
    for j in jumps {
        assert!(s.contains(&format!("│{j}")), "{j} not on\n{s}");
    }
}

/// The first winning jump of `pos`, as text.
fn winning_jump(app: &App) -> String {
    let b = app.game.board();
    let Counted::Ready(h) = app.counter.counted(b, app.game.position()) else {
        panic!("counts not ready")
    };
    let j = h
        .jumps
        .iter()
        .find(|j| j.wins > 0)
        .expect("a winning jump")
        .jump;
    format!("{}-{}", b.hole_name(j.from), b.hole_name(j.to))
}

#[test]
fn a_winning_game_on_tri5_ends_with_one_peg_and_counts_as_hint() {
    let mut app = app("tri:5", None);
    let s = screen(&mut app);
    for h in 0..15 {
        let name = app.game.board().hole_name(h);
        assert!(s.contains(&format!(" {name}")), "{name} not on\n{s}");
    }
    assert!(s.contains("wins still possible: 29,760"), "{s}"); // published
    while !app.game.is_over() {
        check_counts(&mut app, Finish::Any, "");
        let jump = winning_jump(&app);
        type_jump(&mut app, &jump);
        assert!(
            app.message.starts_with(&format!("played {jump}")),
            "{}",
            app.message
        );
    }
    assert_eq!(app.game.position().count_ones(), 1);
    assert_eq!(app.game.jumps().len(), 13);
    let s = screen(&mut app);
    assert!(s.contains("wins still possible: 1"), "{s}");
    assert!(s.contains("a win"), "{s}");
    assert!(
        s.contains("1 of the 29,760 winning games from the start"),
        "{s}"
    );
    // tri:5's games by pegs left (published): 29,760 of 568,630 end with one peg.
    assert!(
        s.contains("29,760 of the 568,630 games from the start (5.23%) end with 1 peg"),
        "{s}"
    );
    // The game as `pegsol check` reads it.
    let text = app.game.game_text();
    let parts = crate::games::notation::split_game_text(&text).unwrap();
    let b = app.game.board();
    let jumps = crate::games::notation::parse_jumps(b, &parts.moves).unwrap();
    let end = crate::games::notation::replay(b, b.default_start(), &jumps).unwrap();
    assert_eq!(end.count_ones(), 1);
}

#[test]
fn counts_with_a_finish_hole_equal_hints() {
    let mut app = app("tri:5", Some("a1"));
    let finish = app.finish;
    let s = screen(&mut app);
    assert!(s.contains("wins ending on a1 still possible: 6,816"), "{s}"); // published
    let mut losing_marked = false;
    while !app.game.is_over() {
        check_counts(&mut app, finish, " ending on a1");
        losing_marked |= screen(&mut app).contains("  loses");
        let jump = winning_jump(&app);
        type_jump(&mut app, &jump);
    }
    // Some jump on the way loses (no win ending on a1 left after it), and is marked so.
    assert!(losing_marked);
    let s = screen(&mut app);
    assert!(s.contains("1 peg left, on a1: a win"), "{s}");
    assert!(
        s.contains("1 of the 6,816 winning games ending on a1 from the start"),
        "{s}"
    );
}

#[test]
fn undo_restores_the_previous_screen_and_redo_replays() {
    let mut app = app("tri:5", None);
    let b = app.game.board().clone();
    let (a3, a1) = (b.hole("a3").unwrap(), b.hole("a1").unwrap());
    screen(&mut app);
    // A click on a3 chooses it; Esc lets it go again.
    click(&mut app, a3);
    assert_eq!((app.cursor, app.selected), (a3, Some(a3)));
    press(&mut app, KeyCode::Esc);
    let body = |s: &str| s.lines().take(37).collect::<Vec<_>>().join("\n");
    let before = screen(&mut app);
    type_jump(&mut app, "a3-a1");
    let after = screen(&mut app);
    assert_ne!(body(&before), body(&after));
    assert!(after.contains("wins still possible: 14,880"), "{after}");
    ctrl(&mut app, 'z');
    assert_eq!(body(&screen(&mut app)), body(&before));
    ctrl(&mut app, 'y');
    assert_eq!(body(&screen(&mut app)), body(&after));
    // Choosing with the mouse: a click on c3, then on a1, plays c3-a1.
    ctrl(&mut app, 'r');
    assert!(app.game.jumps().is_empty());
    click(&mut app, b.hole("c3").unwrap());
    click(&mut app, a1);
    assert_eq!(app.game.jumps().len(), 1);
    assert!(app.message.starts_with("played c3-a1"), "{}", app.message);
    // With the arrows: from a1 down to a2 (one row down), then Enter on an empty hole.
    press(&mut app, KeyCode::Up);
    assert_eq!(app.cursor, a1);
    press(&mut app, KeyCode::Down);
    assert_eq!(app.cursor, b.hole("a2").unwrap());
    // An illegal jump typed: refused, the game unchanged.
    type_jump(&mut app, "a1-c3");
    assert_eq!(app.game.jumps().len(), 1);
    assert!(app.message.contains("c3"), "{}", app.message);
    ctrl(&mut app, 'q');
    assert!(app.quit);
}

#[test]
fn a_board_without_counts_is_still_played() {
    let board = Board::from_spec("tri:5").unwrap();
    let counter = Counter::off("english is too large for live counts");
    let mut app = App::new(Game::new(board, None), counter, Finish::Any);
    type_jump(&mut app, "a3-a1");
    let s = screen(&mut app);
    assert!(s.contains("english is too large for live counts"), "{s}");
    assert!(s.contains("  c3-a3 (over b3)"), "{s}");
    assert!(!s.contains("wins still possible"), "{s}");
}
