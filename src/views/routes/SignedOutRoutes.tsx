import { Redirect, Route, Switch } from 'wouter'
import { LoginScreen } from '../auth/LoginScreen'
import { RegisterScreen } from '../auth/RegisterScreen'
import { ForgotPasswordScreen } from '../auth/ForgotPasswordScreen'
import { ResetPasswordScreen } from '../auth/ResetPasswordScreen'

// Signed-out visitors reach only /login, /register, /forgot-password and /reset-password; anything else goes to /login
import { VerifyEmailSignedOut } from '../email/VerifyEmailScreen'

// Signed-out visitors reach only /login, /register and /verify-email (a mailed link); anything else goes to /login
// (docs/product.md, "Screens and routes").
export function SignedOutRoutes() {
  return (
    <Switch>
      <Route path="/login" component={LoginScreen} />
      <Route path="/register" component={RegisterScreen} />
      <Route path="/forgot-password" component={ForgotPasswordScreen} />
      <Route path="/reset-password" component={ResetPasswordScreen} />
      <Route path="/verify-email" component={VerifyEmailSignedOut} />
      <Route>
        <Redirect to="/login" replace />
      </Route>
    </Switch>
  )
}
