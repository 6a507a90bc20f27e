/* The import page: a chosen record file is read into the text field (#record-text). */

document.addEventListener("change", (evt) => {
  const input = evt.target;
  if (!input || input.id !== "record-file" || !input.files.length) return;
  const reader = new FileReader();
  reader.onload = () => {
    document.getElementById("record-text").value = reader.result;
  };
  reader.readAsText(input.files[0]);
});
