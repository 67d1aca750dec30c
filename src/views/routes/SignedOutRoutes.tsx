import { Redirect, Route, Switch } from 'wouter'
import { LoginScreen } from '../auth/LoginScreen'
import { RegisterScreen } from '../auth/RegisterScreen'

// Signed-out visitors reach only /login and /register; anything else goes to /login
// (docs/product.md, "Screens and routes").
export function SignedOutRoutes() {
  return (
    <Switch>
      <Route path="/login" component={LoginScreen} />
      <Route path="/register" component={RegisterScreen} />
      <Route>
        <Redirect to="/login" replace />
      </Route>
    </Switch>
  )
}
