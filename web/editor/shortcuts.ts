/** The editor's keys, as the page lists them (`data-testid="shortcuts"`) and the keyboard handler reads them. */
export const SHORTCUTS: ReadonlyArray<readonly [keys: string, what: string]> = [
  ['N', 'add a vertex (a form: id, name)'],
  ['E', 'add an edge (a form: source, target); with the mouse, drag from a vertex to another'],
  ['Double-click', 'add a vertex where you click'],
  ['Tab, Shift+Tab', 'go through the elements and the fields'],
  ['Enter, Space', 'select the focused element (Shift: add it to the selection)'],
  ['Arrow keys', 'move the selected vertices (Shift: further)'],
  ['Delete, Backspace', 'delete the selection (a vertex with its edges)'],
  ['Ctrl+A', 'select every element of the model'],
  ['Escape', 'in a field: back to the drawing (the field is sent, as with Tab); in the drawing: clear the selection, close a form, leave edge drawing'],
  ['F', 'go to the fields of the selection'],
  ['Ctrl+Z', 'undo'],
  ['Ctrl+Shift+Z, Ctrl+Y', 'redo'],
  ['Shift+drag', 'add a rectangle of elements to the selection'],
];
