import { shellDeletions } from './deletions.js';
import { parseAction } from './parsed-action.js';
import { windowsCommands, windowsDeletions } from './windows-commands.js';

const shell = (command: string, cwd = 'C:\\Users\\me\\proj') => parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, cwd);

describe('cmd and PowerShell lines', () => {
  it('splits a line as cmd and PowerShell do, through cmd /c and powershell -Command', () => {
    expect(windowsCommands(shell('powershell -NoProfile -Command "Remove-Item -Path C:\\tmp\\x -Recurse; Write-Host done"'))).toEqual([
      { program: 'remove-item', args: '-Path C:\\tmp\\x -Recurse', pipedFrom: false },
      { program: 'write-host', args: 'done', pipedFrom: false },
    ]);
    expect(windowsCommands(shell('Get-Content C:\\w\\a.ps1 -Raw | Invoke-Expression; Write-Host ok')).map((c) => [c.program, c.pipedFrom])).toEqual([
      ['get-content', false],
      ['invoke-expression', true],
      ['write-host', false],
    ]);
    expect(windowsCommands(shell('ls -la src'))).toEqual([]);
    // A backslash before a space is bash's escape: one directory, `my dir`, not `my\` and `dir`.
    expect(windowsCommands(shell('rmdir my\\ dir', '/home/me/proj'))).toEqual([]);
    expect(shellDeletions(shell('rmdir my\\ dir', '/home/me/proj')).map((d) => d.target)).toEqual(['/home/me/proj/my dir']);
  });

  // A script written by a here-document in a session on macOS (a public Codex session saved by SpecStory): the
  // escapes of its sed expression made the whole text, the script's own lines with it, read as commands.
  it('reads no cmd or PowerShell in a bash line whose only sign is a backslash, where bash reads the line', () => {
    const script = "cat > scripts/service.sh <<'EOF'\n  e=$(printf '%s' \"$E\" | sed 's/[\\\\/&]/\\\\&/g')\n  launchctl bootout \"$T\"\n  local cmd=\"$1\"\nEOF";
    expect(windowsCommands(shell(script, '/Users/me/app'))).toEqual([]);
    expect(windowsCommands(shell("grep -E 'a\\.b' src/x.ts", '/home/me/proj'))).toEqual([]);
    // A drive, a share, cmd or PowerShell named still tell a Windows line wherever the session runs.
    expect(windowsCommands(shell('rd /s /q C:\\build', '/home/me/proj')).map((c) => c.program)).toEqual(['rd']);
    expect(windowsCommands(shell('powershell -Command "Remove-Item -Recurse .\\dist"', '/home/me/proj')).map((c) => c.program)).toEqual(['remove-item']);
    // In a session on Windows a backslash alone still does.
    expect(windowsCommands(shell('rd /s /q .\\build')).map((c) => c.program)).toEqual(['rd']);
  });

  it('reads what Remove-Item, rd, rmdir and del delete: paths with backslashes, quoted, after -Path, not switches or parameter values', () => {
    expect(windowsDeletions(shell('Remove-Item -Recurse -Force C:\\Users\\me\\Documents'))).toEqual([{ program: 'remove-item', paths: ['C:/Users/me/Documents'], recursive: true }]);
    expect(windowsDeletions(shell('Remove-Item -Path "C:\\Users\\me\\Desktop\\old files" -Recurse -ErrorAction SilentlyContinue -Exclude *.keep'))).toEqual([
      { program: 'remove-item', paths: ['C:/Users/me/Desktop/old files'], recursive: true },
    ]);
    expect(windowsDeletions(shell('cmd /c rd /s /q C:\\build\\out'))).toEqual([{ program: 'rd', paths: ['C:/build/out'], recursive: true }]);
    expect(windowsDeletions(shell('del /f /q .\\dist\\app.js'))).toEqual([{ program: 'del', paths: ['./dist/app.js'], recursive: false }]);
    // A variable or a subexpression is known only when it runs.
    expect(windowsDeletions(shell('Remove-Item -Recurse -Force $env:TEMP\\foo'))).toEqual([]);
  });

  it('keeps a quoted path with spaces whole, in a user name too, and reads quotes escaped inside cmd /c "…"', () => {
    // Antigravity and Copilot CLI sessions on Windows, a user whose name has spaces in it, a file name with spaces.
    const home = 'c:\\Users\\Mohit J Madhu\\Documents\\GitHub\\Eager';
    expect(windowsDeletions(shell('Remove-Item -Recurse -Force "c:\\Users\\Mohit J Madhu\\Documents\\GitHub\\Eager\\src\\app\\check-email"', home))).toEqual([
      { program: 'remove-item', paths: ['c:/Users/Mohit J Madhu/Documents/GitHub/Eager/src/app/check-email'], recursive: true },
    ]);
    expect(windowsDeletions(shell('cmd /c "del \\"C:\\Users\\loganf\\Documents\\VAULT\\THE TRYPTICH 0401.md\\""', 'C:\\Users\\loganf\\Documents\\VAULT'))).toEqual([
      { program: 'del', paths: ['C:/Users/loganf/Documents/VAULT/THE TRYPTICH 0401.md'], recursive: false },
    ]);
  });

  it('counts them among the deletions of the line, against the session’s directory', () => {
    const targets = (command: string) => shellDeletions(shell(command)).map((d) => [d.target, d.recursive]);
    expect(targets('Remove-Item -Recurse -Force C:\\Users\\me\\Documents')).toEqual([['c:/users/me/documents', true]]);
    expect(targets('Remove-Item .\\out -Recurse -Force')).toEqual([['c:/users/me/proj/out', true]]);
    // cmd's switches are no directories to delete.
    expect(targets('rmdir /s /q build')).toEqual([['c:/users/me/proj/build', false]]);
  });
});
