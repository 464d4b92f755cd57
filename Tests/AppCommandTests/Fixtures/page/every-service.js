const r = await window.results;
return { ...r, status: document.getElementById('status').textContent };
