// Suggests the bot's commands in the input as the user types "/": the
// list comes from the bot's command table (GET /api/commands), the same
// one Discord and Telegram show.
'use strict';
document.addEventListener('DOMContentLoaded', async () => {
  const input = document.getElementById('line');
  if (!input) return;
  let cmds;
  try {
    const r = await fetch('/api/commands');
    if (!r.ok) return;
    cmds = await r.json();
  } catch (e) {
    return;
  }
  const list = document.createElement('datalist');
  list.id = 'commands';
  for (const c of cmds) {
    const o = document.createElement('option');
    o.value = '/' + c.name + ' ';
    o.label = c.description;
    o.title = c.usage;
    list.append(o);
  }
  document.body.append(list);
  input.setAttribute('list', list.id);
});
