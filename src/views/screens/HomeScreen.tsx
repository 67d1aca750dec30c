// The route's entry point; Home itself lives in src/views/home.
export { HomeScreen } from '../home/HomeScreen'
