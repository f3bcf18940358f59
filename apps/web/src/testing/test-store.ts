// The real store, for specs of every layer: they build it through here rather than import app/ (layers point down).
export { createStore, type AppStore } from '../app/store';
