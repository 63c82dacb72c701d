// Placeholder: the task pane issue fills this file.
export {};
