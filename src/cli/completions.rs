//! `pegsol completions SHELL` and `pegsol man`: shell completions (clap_complete) and man
//! pages (clap_mangen), generated from the same clap definitions as the parser, so they
//! never fall out of step with the options.

use super::{Cli, print};
use crate::error::{Error, Result};
use crate::output::files;
use clap::{Args, CommandFactory};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub(super) struct CompletionsArgs {
    /// The shell: bash, elvish, fish, powershell or zsh.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Prints the completion script for the shell.
pub(super) fn run(args: CompletionsArgs) -> Result<i32> {
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "pegsol", &mut buf);
    print(&String::from_utf8_lossy(&buf));
    Ok(0)
}

#[derive(Debug, Args)]
pub(super) struct ManArgs {
    /// Write pegsol.1 and one page per command (pegsol-count.1, ...) into DIR instead of
    /// printing pegsol.1.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Renders one man page.
fn render(cmd: clap::Command) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut buf)
        .map_err(|e| Error::input(format!("cannot render the man page: {e}")))?;
    Ok(buf)
}

/// Prints the man page, or writes every page into a directory (atomically).
pub(super) fn man(args: ManArgs) -> Result<i32> {
    let cmd = Cli::command();
    let Some(dir) = args.dir else {
        print(&String::from_utf8_lossy(&render(cmd)?));
        return Ok(0);
    };
    files::prepare_dir(&dir)?;
    let mut pages = vec![("pegsol.1".to_string(), render(cmd.clone())?)];
    for sub in cmd.get_subcommands() {
        let name = format!("pegsol-{}", sub.get_name());
        pages.push((format!("{name}.1"), render(sub.clone().name(name))?));
    }
    let named: Vec<(&str, Vec<u8>)> = pages.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    files::write_atomically(&dir, &named)?;
    for (name, _) in &pages {
        print(&format!("{}\n", dir.join(name).display()));
    }
    Ok(0)
}
